import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { knownEvent, requiredObjectsOf } from '../test/arbitraries'
import * as fixtures from '../test/fixtures'
import {
  compactEventSchema,
  deliveryPayloadSchema,
  type Event,
  eventSchema,
  eventTypeLabel,
  eventTypeList,
  eventTypes,
  isEventOfType,
  isEventType,
  isKnownEvent,
  parseEvent,
  SchemaValidationError,
  safeParseEvent,
  toCompactEvent,
} from './index'

describe('event-type registry', () => {
  it('has the 22 event types, each with its documented label and family', () => {
    expect(eventTypeList).toHaveLength(22)
    expect(new Set(eventTypeList).size).toBe(22)
    for (const type of eventTypeList) {
      const [family, kind] = type.split('.') as [string, string]
      expect(eventTypes[type].family).toBe(family)
      expect(eventTypes[type].label.toLowerCase()).toBe(`${family} ${kind}`)
    }
    expect(eventTypeLabel('instrument.authorized')).toBe('Instrument authorized')
    expect(eventTypeLabel('refund.success')).toBe('Refund success')
  })

  it('recognises known types only', () => {
    expect(isEventType('payment.settled')).toBe(true)
    for (const value of ['payment.refunded', 'toString', '__proto__', '', 42, null]) {
      expect(isEventType(value), String(value)).toBe(false)
    }
    expect(eventTypeLabel('payment.refunded')).toBeUndefined()
  })
})

describe('parseEvent (full form)', () => {
  it('parses the full event with every object filled', () => {
    const event = parseEvent(fixtures.fullEvent)
    expect(event).toEqual(fixtures.fullEvent)
    expect(isEventOfType(event, 'refund.success')).toBe(true)
    if (isEventOfType(event, 'refund.success')) {
      // Typed non-null: the family's objects are required.
      expect(event.refund.id).toBe(fixtures.refund.id)
      expect(event.payment.id).toBe(fixtures.payment.id)
    }
  })

  it('parses the event with only the documented fields (no chargekit fields)', () => {
    const event = parseEvent(fixtures.specFullEvent)
    expect(event.type).toBe('instrument.authorized')
    expect(event.settlement).toBeNull()
    expect(event.delivery_status).toBeUndefined()
  })

  it('narrows by type once the event is known', () => {
    const event: Event = parseEvent({
      ...fixtures.fullEvent,
      type: 'payment.success',
      type_label: 'Payment success',
    })
    expect(isKnownEvent(event)).toBe(true)
    if (isKnownEvent(event) && event.type === 'payment.success') {
      expect(event.payment.amount).toBe(1250.5)
    } else {
      expect.unreachable('payment.success should narrow')
    }
  })

  it('requires the objects of the type’s family, naming the missing one', () => {
    const { payment: _payment, ...withoutPayment } = fixtures.fullEvent
    const missing = safeParseEvent({ ...withoutPayment, type: 'payment.success' })
    expect(missing.success).toBe(false)
    if (!missing.success) {
      expect(missing.error).toBeInstanceOf(SchemaValidationError)
      expect(missing.error.parameters).toEqual({ payment: ['Required: expected object'] })
    }
    const nulled = safeParseEvent({ ...fixtures.fullEvent, type: 'reversal.error', reversal: null })
    expect(nulled.success ? [] : Object.keys(nulled.error.parameters)).toEqual(['reversal'])
    // A charge event needs no instrument.
    expect(
      safeParseEvent({
        ...fixtures.fullEvent,
        type: 'charge.created',
        instrument: null,
        payment: null,
        refund: null,
      }).success,
    ).toBe(true)
  })

  it('parses an unknown type as a generic event instead of failing', () => {
    const raw = {
      ...fixtures.fullEvent,
      type: 'payment.chargeback_warning',
      type_label: 'Chargeback warning',
      payment: null,
      refund: undefined,
      warning: { level: 2 },
    }
    const event = parseEvent(raw)
    expect(isKnownEvent(event)).toBe(false)
    expect(event.type).toBe('payment.chargeback_warning')
    expect(event.payment).toBeNull()
    expect((event as unknown as Record<string, unknown>).warning).toEqual({ level: 2 })
    // Known fields of an unknown event are still checked.
    expect(() => parseEvent({ ...raw, created_at: 'yesterday' })).toThrow(/created_at/)
  })

  it('keeps unknown fields, nested ones included', () => {
    const event = parseEvent({
      ...fixtures.fullEvent,
      api_version: '2025-03',
      charge: { ...fixtures.charge, risk_score: 12 },
    })
    expect((event as unknown as Record<string, unknown>).api_version).toBe('2025-03')
    expect((event.charge as unknown as Record<string, unknown>).risk_score).toBe(12)
  })

  it('throws a SchemaValidationError listing every bad field by dotted path', () => {
    const bad = {
      ...fixtures.fullEvent,
      result_status: '200',
      retries_log: [{ created_at: '2025-03-16T08:35:00Z' }],
      charge: { ...fixtures.charge, metadata: ['order 1'] },
    }
    let thrown: unknown
    try {
      parseEvent(bad)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(SchemaValidationError)
    const error = thrown as SchemaValidationError
    expect(error.parameters).toEqual({
      result_status: ['Expected number, received string'],
      'retries_log.0.result_status': ['Required: expected number'],
      'charge.metadata': ['Invalid input'],
    })
    expect(error.issues).toHaveLength(3)
    expect(error.message).toMatch(
      /^Invalid event: result_status: Expected number, received string \| /,
    )
    expect(error.message).toMatch(/`parameters`/)
  })

  it('rejects amounts with more decimals than their currency, in every object of the event', () => {
    const result = safeParseEvent({
      ...fixtures.fullEvent,
      charge: { ...fixtures.charge, amount: 1250.505 },
      payment: { ...fixtures.payment, refunded_amount: 0.001 },
      settlement: {
        ...fixtures.settlement,
        totals: [{ ...fixtures.settlement.totals[0], net_amount: 1050.505 }],
      },
    })
    expect(result.success).toBe(false)
    if (!result.success) {
      expect(result.error.parameters).toEqual({
        'charge.amount': ['Expected at most 2 decimals for MXN'],
        'payment.refunded_amount': ['Expected at most 2 decimals for MXN'],
        'settlement.totals.0.net_amount': ['Expected at most 2 decimals for MXN'],
      })
    }
    // The same event with exact amounts parses (the fast compiled path and the interpreter agree).
    expect(safeParseEvent(fixtures.fullEvent).success).toBe(true)
  })

  it('rejects values that are not objects', () => {
    for (const value of [null, 'ev_1', 42, [fixtures.fullEvent]]) {
      const result = safeParseEvent(value)
      expect(result.success).toBe(false)
      if (!result.success) expect(Object.keys(result.error.parameters)).toEqual(['(root)'])
    }
  })

  it('parses every generated event of every known type', () => {
    fc.assert(
      fc.property(knownEvent, (raw) => {
        const result = safeParseEvent(raw)
        expect(result.success ? undefined : result.error.parameters).toBeUndefined()
        expect(result.success && result.data).toEqual(raw)
      }),
      { numRuns: 200 },
    )
  })

  it('rejects every generated event missing one of its family’s objects', () => {
    fc.assert(
      fc.property(knownEvent, fc.nat(), fc.boolean(), (raw, pick, nullIt) => {
        const required = requiredObjectsOf(raw.type as never)
        const field = required[pick % required.length] as string
        const broken: Record<string, unknown> = { ...raw }
        if (nullIt) broken[field] = null
        else delete broken[field]
        const result = safeParseEvent(broken)
        expect(result.success ? [] : Object.keys(result.error.parameters)).toEqual([field])
      }),
      { numRuns: 200 },
    )
  })

  it('eventSchema accepts any type with the objects all optional', () => {
    const {
      charge: _c,
      instrument: _i,
      payment: _p,
      refund: _r,
      reversal: _v,
      dispute: _d,
      settlement: _s,
      ...bare
    } = fixtures.fullEvent
    expect(eventSchema.safeParse({ ...bare, type: 'payment.success' }).success).toBe(true)
  })
})

describe('compact form and delivery payload', () => {
  it('parses the documented compact event', () => {
    const result = compactEventSchema.safeParse(fixtures.compactEvent)
    expect(result.error).toBeUndefined()
    expect(result.data).toEqual(fixtures.compactEvent)
  })

  it('keeps a charge metadata string as it is, in the full and the compact form', () => {
    const metadata = '42|1001'
    const full = parseEvent({ ...fixtures.fullEvent, charge: { ...fixtures.charge, metadata } })
    expect(full.charge?.metadata).toBe(metadata)
    const compact = toCompactEvent({
      ...fixtures.fullEvent,
      charge: { ...fixtures.charge, metadata },
    })
    expect(compact.charge.metadata).toBe(metadata)
    expect(compactEventSchema.parse(compact).charge.metadata).toBe(metadata)
  })

  it('accepts charge_type for charge.type and a charge event without instrument', () => {
    const { type: _type, ...charge } = fixtures.compactEvent.charge
    const event = {
      id: 'ev_1',
      type: 'charge.created',
      charge: { ...charge, charge_type: 'card_onetime' },
    }
    expect(compactEventSchema.safeParse(event).success).toBe(true)
  })

  it('requires the payment method as charge.type or charge.charge_type', () => {
    const { type: _type, ...charge } = fixtures.compactEvent.charge
    const result = compactEventSchema.safeParse({ ...fixtures.compactEvent, charge })
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['charge', 'Required: expected the payment method as `type` or `charge_type` (a string)'],
    ])
    expect(
      compactEventSchema
        .safeParse({ ...fixtures.compactEvent, charge: { ...charge, type: 7 } })
        .error?.issues.map((issue) => issue.path.join('.')),
    ).toEqual(['charge.type'])
  })

  it('checks the compact charge amount against its currency', () => {
    const result = compactEventSchema.safeParse({
      ...fixtures.compactEvent,
      charge: { ...fixtures.compactEvent.charge, amount: 1250.555 },
    })
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['charge.amount', 'Expected at most 2 decimals for MXN'],
    ])
  })

  it('names the bad field of a compact event', () => {
    const result = compactEventSchema.safeParse({
      ...fixtures.compactEvent,
      instrument: { ...fixtures.compactEvent.instrument, recurring: 'no' },
    })
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual([
      'instrument.recurring',
    ])
  })

  it('parses the delivery payload {id, type}, any type string', () => {
    expect(deliveryPayloadSchema.parse({ id: 'ev_1', type: 'instrument.authorized' })).toEqual({
      id: 'ev_1',
      type: 'instrument.authorized',
    })
    expect(deliveryPayloadSchema.safeParse({ id: 'ev_1', type: 'brand.new' }).success).toBe(true)
    expect(deliveryPayloadSchema.safeParse({ id: '', type: 'charge.created' }).success).toBe(false)
    expect(
      deliveryPayloadSchema.safeParse({ type: 'charge.created' }).error?.issues[0]?.path,
    ).toEqual(['id'])
  })
})
