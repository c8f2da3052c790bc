import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as z from 'zod/v4'
import { generateResponseShapes, responseShapesFile } from '../scripts/generate-response-shapes'
import {
  chargeSchema,
  chargeTypeListSchema,
  compiledCheck,
  disputeSchema,
  type EventType,
  eventSchema,
  eventTypeList,
  eventTypes,
  formatZodIssues,
  instrumentSchema,
  knownEventSchemas,
  listEnvelopeSchema,
  paymentSchema,
  recordedRequestSchema,
  refundSchema,
  reversalSchema,
  settlementSchema,
} from '../src/index'
import {
  chargeShape,
  chargeTypeListShape,
  checkShape,
  disputeShape,
  eventShapes,
  genericEventShape,
  instrumentShape,
  listEnvelopeShape,
  paymentShape,
  recordedRequestShape,
  refundShape,
  reversalShape,
  type Shape,
  settlementShape,
} from '../src/response-checks'
import * as fixtures from './fixtures'
import recorded from './recorded/sandbox-answers.json'

/** What zod says of `value`, in the form `checkShape` answers. */
function zodVerdict(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value)
  return result.success
    ? { success: true }
    : { success: false, issues: formatZodIssues(result.error) }
}

const { events, deliveries } = recorded
const recordedEvents: Record<string, { type: string }> = { ...deliveries, ...events }
const chargeTypeList = {
  collection: [
    {
      id: 'card_onetime',
      label: 'Card one-time payment',
      recurring: false,
      payout: false,
      schema: { type: 'object' },
      refundable: true,
      currencies: ['EUR', 'USD'],
    },
    { id: 'mbway', label: 'MB WAY', recurring: false, payout: false, schema: {} },
  ],
}
const recordedRequest = {
  id: 'req_1',
  method: 'POST',
  path: '/v2/charges/',
  status: 201,
  created_at: '2025-01-31T12:00:00.250+01:00',
  duration_ms: 3.5,
  warnings: [
    { code: 'trailing_slash', message: 'The path ends with /', instead: 'POST /v2/charges' },
    { code: 'a_newer_warning', field: 'amount', message: 'm', instead: 'i' },
  ],
  warnings_omitted: 0,
}
const cases: [name: string, shape: Shape, schema: z.ZodType, samples: unknown[]][] = [
  ['charge', chargeShape, chargeSchema, [recorded.charge, fixtures.charge]],
  ['charge type list', chargeTypeListShape, chargeTypeListSchema, [chargeTypeList]],
  ['recorded request', recordedRequestShape, recordedRequestSchema, [recordedRequest]],
  [
    'instrument',
    instrumentShape,
    instrumentSchema,
    [recorded.instrument, recorded.pendingInstrument, fixtures.instrument],
  ],
  ['payment', paymentShape, paymentSchema, [recorded.payment, recorded.failedPayment]],
  ['refund', refundShape, refundSchema, [recorded.refund, fixtures.refund]],
  ['reversal', reversalShape, reversalSchema, [recorded.reversal, fixtures.reversal]],
  ['dispute', disputeShape, disputeSchema, [recorded.dispute, fixtures.dispute]],
  ['settlement', settlementShape, settlementSchema, [recorded.settlement, fixtures.settlement]],
  ['generic event', genericEventShape, eventSchema, Object.values(events)],
  [
    'list page',
    listEnvelopeShape,
    listEnvelopeSchema(z.unknown()),
    [{ collection: [], pagination: { page: 1, per_page: 10, total: 0 }, filters: {} }],
  ],
  ...eventTypeList.map((type): (typeof cases)[number] => [
    type,
    eventShapes[type],
    knownEventSchemas[type],
    [sampleEventOf(type)],
  ]),
]

/**
 * The recorded event of `type`, or for a type the recorded run did not produce, a recorded event
 * of the same family with its type changed.
 */
function sampleEventOf(type: EventType): unknown {
  const own = recordedEvents[type]
  if (own !== undefined) return own
  const family = eventTypes[type].family
  const sibling = Object.values(recordedEvents).find(
    (event) => eventTypes[event.type as EventType].family === family,
  )
  return { ...sibling, type }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** Every path into `value`, the value itself included. */
function pathsOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const paths = [path]
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      paths.push(...pathsOf(item, [...path, Array.isArray(value) ? Number(key) : key]))
    }
  }
  return paths
}

const absent = Symbol('absent')

/** `value` with the thing at `path` replaced, or removed when `replacement` is `absent`. */
function replaceAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement === absent ? undefined : replacement
  const [key, ...rest] = path as [string | number, ...(string | number)[]]
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >
  const next = replaceAt(copy[key], rest, replacement)
  if (rest.length === 0 && replacement === absent) delete copy[key]
  else copy[key] = next
  return copy
}

// Values that break or bend each kind of rule: wrong types, edge numbers, amounts with too many
// decimals, near-miss timestamps, currencies, open-enum strings.
const replacement: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(absent),
  fc.constantFrom<Json>(null, true, false, 0, -1, 1, 0.5, 1.005, 12, 13, 599, 600, '', [], {}),
  fc.constantFrom('USD', 'JPY', 'BHD', 'usd', 'XXX', 'GET', 'POST', 'pending', 'success'),
  fc.constantFrom('2025-01-31T12:00:00Z', '2025-02-30T12:00:00Z', '2025-01-31T12:00:00'),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.string(),
  fc.array(fc.string(), { maxLength: 2 }),
)

function mutated(sample: unknown): fc.Arbitrary<unknown> {
  const paths = pathsOf(sample)
  return fc
    .array(fc.tuple(fc.constantFrom(...paths), replacement), { minLength: 1, maxLength: 3 })
    .map((changes) => changes.reduce((value, [path, next]) => replaceAt(value, path, next), sample))
}

describe('response shapes', () => {
  it('are generated from the zod schemas as they are now', () => {
    expect(readFileSync(responseShapesFile, 'utf8')).toBe(generateResponseShapes())
  })

  it.each(cases)('pass every valid %s', (_name, shape, schema, samples) => {
    for (const sample of samples) {
      expect(zodVerdict(schema, sample)).toEqual({ success: true })
      expect(checkShape(shape, sample)).toEqual({ success: true })
    }
  })

  it.each(cases)(
    'judge a broken %s exactly as its zod schema does',
    (_name, shape, schema, samples) => {
      fc.assert(
        fc.property(fc.oneof(...samples.map(mutated)), (value) => {
          expect(checkShape(shape, value)).toEqual(zodVerdict(schema, value))
        }),
        { numRuns: 60 },
      )
    },
  )

  it('name each failing field with what was expected', () => {
    const charge = { ...recorded.charge, amount: 10.005, currency: 'USD', confirmed: 'yes' }
    expect(checkShape(chargeShape, charge)).toEqual({
      success: false,
      issues: { confirmed: ['Expected boolean, received string'] },
    })
    expect(checkShape(chargeShape, { ...charge, confirmed: true })).toEqual({
      success: false,
      issues: { amount: ['Expected at most 2 decimals for USD'] },
    })
    expect(checkShape(chargeShape, null)).toEqual({
      success: false,
      issues: { '(root)': ['Expected object, received null'] },
    })
  })

  it('agree with compiledCheck, the zod-side valid-or-not check', () => {
    const check = compiledCheck(chargeSchema)
    expect(check(recorded.charge)).toBe(true)
    expect(check({ ...recorded.charge, amount: 10.005, currency: 'USD' })).toBe(false)
    expect(
      checkShape(chargeShape, { ...recorded.charge, amount: 10.005, currency: 'USD' }),
    ).toEqual({ success: false, issues: { amount: ['Expected at most 2 decimals for USD'] } })
  })
})
