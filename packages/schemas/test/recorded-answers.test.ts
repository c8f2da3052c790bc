import { describe, expect, expectTypeOf, it } from 'vitest'
import {
  type CardParams,
  chargeSchema,
  compactEventSchema,
  deliveryPayloadSchema,
  disputeSchema,
  eventListQuerySchema,
  eventSchema,
  type Instrument,
  instrumentSchema,
  type Payment,
  parseEvent,
  paymentSchema,
  refundSchema,
  reversalSchema,
  settlementSchema,
  toCompactEvent,
} from '../src/index'
// What the sandbox answered in a full transaction (scripts/record-schema-fixtures.ts).
import recorded from './recorded/sandbox-answers.json'

const copy = <T>(value: T): T => structuredClone(value)
const events = Object.values(recorded.events)

describe('answers recorded from the sandbox', () => {
  it('parse with their schemas and keep every field', () => {
    const cases = [
      [chargeSchema, recorded.charge],
      [instrumentSchema, recorded.instrument],
      [instrumentSchema, recorded.pendingInstrument],
      [paymentSchema, recorded.payment],
      [paymentSchema, recorded.failedPayment],
      [refundSchema, recorded.refund],
      [reversalSchema, recorded.reversal],
      [disputeSchema, recorded.dispute],
      [settlementSchema, recorded.settlement],
    ] as const
    for (const [schema, answer] of cases) expect(schema.parse(answer)).toEqual(answer)
  })

  it('show the references and status words of the service', () => {
    const instrument = instrumentSchema.parse(recorded.instrument)
    const payment = paymentSchema.parse(recorded.payment)
    expect(instrument.charge).toEqual({
      id: recorded.charge.id,
      charge_type: 'card_onetime',
      charge_type_label: recorded.charge.charge_type_label,
    })
    expect(instrument).toMatchObject({
      used: true,
      last_payment: { id: payment.id, success: true, status: 'success' },
    })
    expect(payment).toMatchObject({
      charge: instrument.charge,
      instrument: { id: instrument.id },
      refunds: [{ id: recorded.refund.id, amount: 5, success: true }],
    })
    expect(paymentSchema.parse(recorded.failedPayment).status).toBe('error')
    expect(reversalSchema.parse(recorded.reversal).status).toBe('success')
    expect(instrumentSchema.parse(recorded.pendingInstrument).redirect?.method).toBe('GET')
  })

  it('parse as events, each delivered as the compact form of its full form', () => {
    expect(events.length).toBeGreaterThanOrEqual(12)
    for (const event of events) {
      const parsed = parseEvent(event)
      expect(parsed).toEqual(event)
      const delivered = recorded.deliveries[event.type as keyof typeof recorded.deliveries]
      expect(compactEventSchema.parse(delivered)).toEqual(delivered)
      expect(deliveryPayloadSchema.parse(delivered)).toEqual(delivered)
      expect(delivered).toEqual(toCompactEvent(event))
    }
  })
})

describe('values newer than this package', () => {
  it('are kept, not refused: statuses, card brand and type, redirect method', () => {
    const instrument = copy(recorded.pendingInstrument)
    Object.assign(instrument, { status: 'suspended' })
    Object.assign(instrument.params, { brand: 'ELO', type: 'CHARGE_CARD' })
    Object.assign(instrument.redirect, { method: 'POST' })
    expect(instrumentSchema.parse(instrument)).toMatchObject({
      status: 'suspended',
      params: { brand: 'ELO', type: 'CHARGE_CARD' },
      redirect: { method: 'POST' },
    })

    const payment = { ...copy(recorded.payment), status: 'chargeback' }
    payment.refunds = payment.refunds.map((refund) => ({ ...refund, status: 'queued' }))
    expect(paymentSchema.parse(payment)).toEqual(payment)
    const instrumentWithLast = copy(recorded.instrument)
    Object.assign(instrumentWithLast.last_payment, { status: 'authorizing' })
    expect(instrumentSchema.parse(instrumentWithLast).last_payment?.status).toBe('authorizing')
    expect(refundSchema.parse({ ...recorded.refund, status: 'queued' }).status).toBe('queued')
    expect(reversalSchema.parse({ ...recorded.reversal, status: 'queued' }).status).toBe('queued')
    expect(disputeSchema.parse({ ...recorded.dispute, status: 'under_review' }).status).toBe(
      'under_review',
    )
  })

  it('are kept inside a full event, whose delivery status may be new too', () => {
    const event = copy(recorded.events['dispute.created'])
    Object.assign(event, { delivery_status: 'archived' })
    Object.assign(event.instrument, { status: 'suspended' })
    Object.assign(event.payment, { status: 'chargeback' })
    Object.assign(event.dispute, { status: 'under_review' })
    expect(parseEvent(event)).toEqual(event)
    expect(eventSchema.parse(event).delivery_status).toBe('archived')
  })

  it('card params with details missing or added still parse, and keep the added ones', () => {
    const instrument = copy(recorded.instrument)
    const {
      bank: _bank,
      bank_phone: _phone,
      fingerprint: _fingerprint,
      ...params
    } = instrument.params
    const changed = { ...params, issuer_country_code: 'PT', wallet: 'apple_pay' }
    const parsed = instrumentSchema.parse({ ...instrument, params: changed })
    expect(parsed.params).toEqual(changed)
    expect(parsed.params.bank).toBeUndefined()
    // A present detail is still checked.
    expect(
      instrumentSchema.safeParse({ ...instrument, params: { ...changed, expiration_month: 13 } })
        .success,
    ).toBe(false)
  })

  it('are typed as the known values or any string', () => {
    expectTypeOf<Instrument['status']>().toEqualTypeOf<
      'authorized' | 'pending' | 'invalid' | (string & {})
    >()
    expectTypeOf<Payment['status']>().toEqualTypeOf<
      'pending' | 'success' | 'error' | (string & {}) | undefined
    >()
    expectTypeOf<CardParams['bank']>().toEqualTypeOf<string | undefined>()
  })

  it('are still refused in requests, whose schemas stay strict', () => {
    const result = eventListQuerySchema.safeParse({ delivery_status: 'archived' })
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['delivery_status'])
  })
})
