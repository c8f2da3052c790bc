import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as arb from '../test/arbitraries'
import * as fixtures from '../test/fixtures'
import {
  cardParamsSchema,
  channelSchema,
  chargeSchema,
  currencyMinorDigits,
  disputeSchema,
  formatZodIssues,
  instrumentSchema,
  paymentSchema,
  refundSchema,
  requestLogSchema,
  retryLogEntrySchema,
  reversalSchema,
  settlementSchema,
} from './index'

const cases = [
  ['requestLog', requestLogSchema, fixtures.requestLog],
  ['channel', channelSchema, fixtures.channel],
  ['charge', chargeSchema, fixtures.charge],
  ['cardParams', cardParamsSchema, fixtures.cardParams],
  ['instrument (documented fields only)', instrumentSchema, fixtures.specInstrument],
  ['instrument (with ours)', instrumentSchema, fixtures.instrument],
  ['payment (documented fields only)', paymentSchema, fixtures.specPayment],
  ['payment (with ours)', paymentSchema, fixtures.payment],
  ['refund (documented fields only)', refundSchema, fixtures.specRefund],
  ['refund (with ours)', refundSchema, fixtures.refund],
  ['reversal', reversalSchema, fixtures.reversal],
  ['settlement', settlementSchema, fixtures.settlement],
  ['dispute', disputeSchema, fixtures.dispute],
  ['retry log entry', retryLogEntrySchema, fixtures.fullEvent.retries_log[0]],
] as const

/** The dotted-path keys a failed parse reports, or [] when it passed. */
function failedPaths(
  schema: { safeParse(value: unknown): { success: boolean; error?: unknown } },
  value: unknown,
) {
  const result = schema.safeParse(value)
  return result.success ? [] : Object.keys(formatZodIssues(result.error as never))
}

describe('resource schemas', () => {
  it.each(cases)('%s: the documented payload parses unchanged', (_name, schema, payload) => {
    const result = schema.safeParse(payload)
    expect(result.error).toBeUndefined()
    expect(result.data).toEqual(payload)
  })

  it('passes unknown fields through, at every level', () => {
    const charge = {
      ...fixtures.charge,
      new_field: { nested: true },
      request_log: { ...fixtures.requestLog, device: 'ios' },
      channels: [{ ...fixtures.channel, priority: 1 }],
    }
    const parsed = chargeSchema.parse(charge)
    expect(parsed.new_field).toEqual({ nested: true })
    expect(parsed.request_log.device).toBe('ios')
    expect(parsed.channels?.[0]?.priority).toBe(1)
  })

  it('drops a __proto__ key from free-form objects instead of reaching the prototype', () => {
    // JSON.parse makes `__proto__` an own key; copied carelessly it would swap the prototype.
    const instrument = JSON.parse(
      JSON.stringify({ ...fixtures.instrument, customer: { name: 'Ana' } }).replace(
        '"name":"Ana"',
        '"name":"Ana","__proto__":{"polluted":true}',
      ),
    )
    expect(Object.hasOwn(instrument.customer, '__proto__')).toBe(true)
    const parsed = instrumentSchema.parse(instrument)
    expect(parsed.customer).toEqual({ name: 'Ana' })
    expect(Object.hasOwn(parsed.customer ?? {}, '__proto__')).toBe(false)
    expect(Object.getPrototypeOf(parsed.customer)).toBe(Object.prototype)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
  it('names the path of a wrong type or a missing field', () => {
    expect(failedPaths(chargeSchema, { ...fixtures.charge, amount: '1250.50' })).toEqual(['amount'])
    const { currency: _currency, ...withoutCurrency } = fixtures.charge
    expect(failedPaths(chargeSchema, withoutCurrency)).toEqual(['currency'])
    expect(
      failedPaths(chargeSchema, {
        ...fixtures.charge,
        channels: [{ ...fixtures.channel, processor: 7 }],
      }),
    ).toEqual(['channels.0.processor'])
    expect(
      failedPaths(instrumentSchema, {
        ...fixtures.instrument,
        params: { ...fixtures.cardParams, expiration_month: 13 },
      }),
    ).toEqual(['params.expiration_month'])
    expect(
      failedPaths(paymentSchema, {
        ...fixtures.payment,
        request_log: { ...fixtures.requestLog, library_version: 3 },
      }),
    ).toEqual(['request_log.library_version'])
    expect(
      failedPaths(refundSchema, { ...fixtures.refund, created_at: '2025-03-16 09:30' }),
    ).toEqual(['created_at'])
    expect(failedPaths(instrumentSchema, { ...fixtures.instrument, status: 7 })).toEqual(['status'])
    expect(
      failedPaths(instrumentSchema, {
        ...fixtures.instrument,
        redirect: { url: 'https://x.y', method: 5 },
      }),
    ).toEqual(['redirect.method'])
    expect(
      failedPaths(instrumentSchema, {
        ...fixtures.instrument,
        redirect: { url: null, method: null, parameters: 'entity 21098' },
      }),
    ).toEqual(['redirect.parameters'])
    expect(
      failedPaths(settlementSchema, { ...fixtures.settlement, totals: [{ currency: 'MXN' }] }),
    ).toEqual(['totals.0.payments_amount', 'totals.0.refunds_amount', 'totals.0.net_amount'])
    expect(failedPaths(disputeSchema, { ...fixtures.dispute, status: false })).toEqual(['status'])
    expect(
      failedPaths(paymentSchema, {
        ...fixtures.payment,
        refunds: [{ ...fixtures.payment.refunds[0], amount: '200' }],
      }),
    ).toEqual(['refunds.0.amount'])
    expect(
      failedPaths(instrumentSchema, { ...fixtures.instrument, charge: fixtures.charge.id }),
    ).toEqual(['charge'])
    expect(
      failedPaths(retryLogEntrySchema, {
        created_at: '2025-03-16T08:35:00Z',
        result_status: 200.5,
      }),
    ).toEqual(['result_status'])
  })

  it('checks every amount against the currency’s minor digits, naming the field', () => {
    const issues = (schema: Parameters<typeof failedPaths>[0], value: unknown) => {
      const result = schema.safeParse(value)
      return result.success ? {} : formatZodIssues(result.error as never)
    }
    const mxn = 'Expected at most 2 decimals for MXN'
    expect(issues(chargeSchema, { ...fixtures.charge, amount: 1250.505 })).toEqual({
      amount: [mxn],
    })
    expect(issues(chargeSchema, { ...fixtures.charge, currency: 'JPY' })).toEqual({
      amount: ['Expected a whole number: JPY has no minor unit'],
    })
    expect(issues(paymentSchema, { ...fixtures.specPayment, amount: 0.001 })).toEqual({
      amount: [mxn],
    })
    expect(issues(paymentSchema, { ...fixtures.payment, refunded_amount: 200.125 })).toEqual({
      refunded_amount: [mxn],
    })
    expect(
      issues(instrumentSchema, { ...fixtures.instrument, amount: 1.001, captured_amount: 0.001 }),
    ).toEqual({ amount: [mxn], captured_amount: [mxn] })
    expect(issues(refundSchema, { ...fixtures.refund, amount: 200.001 })).toEqual({
      amount: [mxn],
    })
    expect(
      issues(reversalSchema, { ...fixtures.reversal, currency: 'BHD', amount: 1.0005 }),
    ).toEqual({ amount: ['Expected at most 3 decimals for BHD'] })
    expect(issues(disputeSchema, { ...fixtures.dispute, amount: 10.999 })).toEqual({
      amount: [mxn],
    })
    expect(
      issues(settlementSchema, {
        ...fixtures.settlement,
        totals: [
          { currency: 'JPY', payments_amount: 1000, refunds_amount: 0.5, net_amount: 999.5 },
        ],
      }),
    ).toEqual({
      'totals.0.refunds_amount': ['Expected a whole number: JPY has no minor unit'],
      'totals.0.net_amount': ['Expected a whole number: JPY has no minor unit'],
    })
    // Without a currency (the documented refund and instrument) there is nothing to check against.
    expect(issues(refundSchema, { ...fixtures.specRefund, amount: 200.001 })).toEqual({})
    expect(issues(instrumentSchema, { ...fixtures.specInstrument, amount: 1.001 })).toEqual({})
  })

  const withMoney = [
    ['charge', chargeSchema, arb.charge],
    ['payment', paymentSchema, arb.payment],
    ['refund', refundSchema, arb.refund],
    ['reversal', reversalSchema, arb.reversal],
    ['dispute', disputeSchema, arb.dispute],
  ] as const

  it.each(withMoney)(
    '%s: one decimal more than the currency allows fails at amount',
    (_name, schema, arbitrary) => {
      fc.assert(
        fc.property(arbitrary as fc.Arbitrary<{ amount: number; currency: string }>, (value) => {
          const digits = currencyMinorDigits(value.currency)
          const text = value.amount.toFixed(digits)
          const amount = Number(`${text}${digits === 0 ? '.' : ''}3`)
          expect(failedPaths(schema, { ...value, amount })).toEqual(['amount'])
        }),
        { numRuns: 100 },
      )
    },
  )

  it('says a missing field is required and what it expects', () => {
    const { charge_type: _type, ...rest } = fixtures.charge
    const result = chargeSchema.safeParse(rest)
    expect(result.success).toBe(false)
    if (!result.success)
      expect(formatZodIssues(result.error)).toEqual({ charge_type: ['Required: expected string'] })
  })

  const generated = [
    ['charge', chargeSchema, arb.charge],
    ['instrument', instrumentSchema, arb.instrument],
    ['payment', paymentSchema, arb.payment],
    ['refund', refundSchema, arb.refund],
    ['reversal', reversalSchema, arb.reversal],
    ['dispute', disputeSchema, arb.dispute],
    ['settlement', settlementSchema, arb.settlement],
  ] as const

  it.each(generated)(
    '%s: every generated valid object parses, extras kept',
    (_name, schema, arbitrary) => {
      fc.assert(
        fc.property(arbitrary as fc.Arbitrary<Record<string, unknown>>, (value) => {
          const result = schema.safeParse(value)
          expect(result.error).toBeUndefined()
          expect(result.data).toEqual(value)
        }),
        { numRuns: 150 },
      )
    },
  )

  it.each(generated)(
    '%s: dropping or retyping any required field fails at that field',
    (_name, schema, arbitrary) => {
      fc.assert(
        fc.property(
          arbitrary as fc.Arbitrary<Record<string, unknown>>,
          fc.nat(),
          fc.constantFrom('drop', 'retype'),
          (value, pick, how) => {
            const required = Object.keys(schema.shape).filter(
              (key) =>
                key in value &&
                !schema.shape[key as keyof typeof schema.shape].safeParse(undefined).success,
            )
            const field = required[pick % required.length] as string
            const broken: Record<string, unknown> = { ...value }
            if (how === 'drop') delete broken[field]
            // A symbol is valid for no JSON schema.
            else broken[field] = Symbol('wrong')
            expect(failedPaths(schema, broken)).toEqual([field])
          },
        ),
        { numRuns: 100 },
      )
    },
  )
})
