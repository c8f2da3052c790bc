/**
 * fast-check generators of valid payloads, built from the package's own rules (currency
 * digits from Intl, ISO 8601 with Z or an offset) rather than from fixed samples.
 */
import fc from 'fast-check'
import { type EventType, eventTypeList, eventTypes, fromMinorUnits } from '../src/index'

export const currencies = ['USD', 'EUR', 'MXN', 'JPY', 'CLP', 'BHD', 'KWD', 'GBP'] as const

const offsets = ['Z', '+00:00', '-06:00', '+05:30', '+14:00', '-12:00']

/** ISO 8601 timestamps with `Z` or an offset, with and without fractional seconds. */
export const timestamp = fc
  .tuple(
    fc.date({
      min: new Date('2000-01-01T00:00:00Z'),
      max: new Date('2099-12-31T23:59:59Z'),
      noInvalidDate: true,
    }),
    fc.constantFrom(...offsets),
    fc.boolean(),
  )
  .map(([date, offset, millis]) => {
    const iso = date.toISOString()
    const base = millis ? iso.slice(0, -1) : iso.slice(0, 19)
    return `${base}${offset}`
  })

const id = (prefix: string) =>
  fc.stringMatching(/^[A-Za-z0-9]{6,16}$/).map((rest) => `${prefix}_${rest}`)

/**
 * Web URLs with a random host and path. Not `fc.webUrl()`: its percent-encoded path arbitrary
 * takes seconds of CPU to build, paid again by every test file importing this one, and the
 * schemas only read a URL as a whole.
 */
const webUrl = (schemes: readonly string[] = ['http', 'https']) =>
  fc
    .tuple(
      fc.constantFrom(...schemes),
      fc.domain(),
      fc.array(fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/), { maxLength: 3 }),
    )
    .map(([scheme, host, segments]) => `${scheme}://${host}/${segments.join('/')}`)

const minorUnits = (min: bigint) => fc.bigInt({ min, max: 99_999_999_999n })

/** A currency and a positive amount exactly within its minor digits. */
export const money = fc
  .tuple(fc.constantFrom(...currencies), minorUnits(1n))
  .map(([currency, minor]) => ({ currency, amount: fromMinorUnits(minor, currency) }))

/**
 * A key of a free-form object. `__proto__` is left out: the service refuses it in metadata, and
 * the schemas drop it from every other free-form object (see resources.test.ts), so a parsed
 * resource never carries one and a round trip could not keep it.
 */
const freeFormKey = (constraints: fc.StringConstraints = {}) =>
  fc.string(constraints).filter((key) => key !== '__proto__')

const metadata = fc.dictionary(
  freeFormKey({ minLength: 1, maxLength: 12 }),
  fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
  { maxKeys: 4 },
)

const requestLog = fc.record({
  ip_address: fc.ipV4(),
  country: fc.stringMatching(/^[A-Z]{2}$/),
  user_agent: fc.string(),
  library_version: fc.option(fc.string(), { nil: null }),
})

const channel = fc.record({
  id: id('cn'),
  label: fc.string({ minLength: 1 }),
  processor: fc.string({ minLength: 1 }),
})

/** Unknown extra fields, to check they pass through. */
export const extraFields = fc.dictionary(
  fc.stringMatching(/^x_[a-z]{1,8}$/),
  fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
  { maxKeys: 3 },
)

export const charge = fc
  .record({
    id: id('ch'),
    charge_type: fc.constantFrom('card_onetime', 'card_recurring'),
    charge_type_label: fc.string(),
    money,
    events_url: webUrl(['https']),
    redirect_url: fc.oneof(fc.constant(''), webUrl()),
    metadata,
    instrument_params: fc.option(
      fc.record(
        { captured_on_creation: fc.boolean(), enable3ds: fc.boolean(), recurring: fc.boolean() },
        { requiredKeys: [] },
      ),
      { nil: null },
    ),
    channels: fc.option(fc.array(channel, { maxLength: 3 }), { nil: null }),
    confirmed: fc.boolean(),
    external_ids: fc.option(fc.dictionary(freeFormKey(), fc.string(), { maxKeys: 2 }), {
      nil: null,
    }),
    external: fc.boolean(),
    failure_code: fc.option(fc.stringMatching(/^\d{2}\.\d{2}\.\d{4}$/), { nil: null }),
    failure_description: fc.option(fc.string(), { nil: null }),
    created_at: timestamp,
    updated_at: timestamp,
    expires_at: fc.option(timestamp, { nil: null }),
    request_log: requestLog,
    extra: extraFields,
  })
  .map(({ money: { amount, currency }, extra, ...rest }) => ({
    ...extra,
    ...rest,
    amount,
    currency,
  }))

const cardParams = fc.record({
  bank: fc.string(),
  bank_phone: fc.string(),
  bank_website: fc.string(),
  bin: fc.stringMatching(/^\d{6,8}$/),
  brand: fc.constantFrom('VISA', 'MASTERCARD', 'AMEX'),
  country: fc.string(),
  country_isoa2: fc.stringMatching(/^[A-Z]{2}$/),
  country_isoa3: fc.stringMatching(/^[A-Z]{3}$/),
  country_isonumber: fc.stringMatching(/^\d{3}$/),
  enable3ds: fc.boolean(),
  expiration_month: fc.integer({ min: 1, max: 12 }),
  expiration_year: fc.integer({ min: 2000, max: 2099 }),
  fingerprint: fc.string(),
  last_4_digits: fc.stringMatching(/^\d{4}$/),
  name: fc.string(),
  type: fc.constantFrom('CREDIT', 'DEBIT'),
})

const chargeReference = fc.record({
  id: id('ch'),
  charge_type: fc.constantFrom('card_onetime', 'card_recurring'),
  charge_type_label: fc.string(),
})

export const instrument = fc
  .record({
    id: id('in'),
    status: fc.constantFrom('authorized', 'pending', 'invalid'),
    success: fc.boolean(),
    channel,
    customer: fc.option(fc.dictionary(freeFormKey(), fc.string(), { maxKeys: 2 }), { nil: null }),
    external_ids: fc.record({ descriptor: fc.string(), processor: fc.string() }),
    failure_description: fc.option(fc.string(), { nil: null }),
    redirect: fc.option(fc.record({ url: webUrl(), method: fc.constant('GET' as const) }), {
      nil: null,
    }),
    request_log: requestLog,
    params: cardParams,
    created_at: timestamp,
    updated_at: timestamp,
    ours: fc.record(
      {
        charge: chargeReference,
        last_payment: fc.option(
          fc.record({
            id: id('pa'),
            success: fc.boolean(),
            status: fc.constantFrom('pending', 'success', 'error'),
          }),
          { nil: null },
        ),
        used: fc.boolean(),
        money,
        captured_minor: minorUnits(0n),
        recurring: fc.boolean(),
        captured_on_creation: fc.boolean(),
        failure_code: fc.option(fc.stringMatching(/^\d{2}\.\d{2}\.\d{4}$/), { nil: null }),
      },
      { requiredKeys: [] },
    ),
    extra: extraFields,
  })
  .map(({ ours: { money: ourMoney, captured_minor: capturedMinor, ...ours }, extra, ...rest }) => ({
    ...extra,
    ...rest,
    ...ours,
    ...(ourMoney ?? {}),
    // In the instrument's currency when it has one (any currency's amount parses without it).
    ...(capturedMinor === undefined
      ? {}
      : { captured_amount: fromMinorUnits(capturedMinor, ourMoney?.currency ?? 'USD') }),
  }))

const transactionExternalIds = fc.record({
  descriptor: fc.string(),
  processor: fc.string(),
  transaction_id: fc.string(),
  transaction_id_trunc: fc.string(),
})

export const payment = fc
  .record({
    id: id('pa'),
    money,
    description: fc.string(),
    success: fc.boolean(),
    failure_description: fc.option(fc.string(), { nil: null }),
    metadata,
    params: fc.option(fc.dictionary(freeFormKey(), fc.string(), { maxKeys: 2 }), { nil: null }),
    external_ids: transactionExternalIds,
    request_log: requestLog,
    created_at: timestamp,
    updated_at: timestamp,
    ours: fc.record(
      {
        charge: chargeReference,
        instrument: fc.record({ id: id('in') }),
        refunds: fc.array(
          fc.record({
            id: id('re'),
            amount: fc.constantFrom(1, 20.5, 1250),
            success: fc.boolean(),
          }),
          { maxLength: 2 },
        ),
        status: fc.constantFrom('pending', 'success', 'error'),
        failure_code: fc.option(fc.string(), { nil: null }),
        refunded_minor: minorUnits(0n),
        settled_at: fc.option(timestamp, { nil: null }),
      },
      { requiredKeys: [] },
    ),
    extra: extraFields,
  })
  .map(
    ({
      money: { amount, currency },
      ours: { refunded_minor: refundedMinor, ...ours },
      extra,
      ...rest
    }) => ({
      ...extra,
      ...rest,
      ...ours,
      ...(refundedMinor === undefined
        ? {}
        : { refunded_amount: fromMinorUnits(refundedMinor, currency) }),
      amount,
      currency,
    }),
  )

export const refund = fc
  .record({
    id: id('re'),
    money,
    description: fc.string(),
    success: fc.boolean(),
    failure_description: fc.option(fc.string(), { nil: null }),
    external_ids: transactionExternalIds,
    request_log: requestLog,
    created_at: timestamp,
    ours: fc.record(
      {
        payment: id('pa'),
        charge: id('ch'),
        status: fc.constantFrom('pending', 'success', 'error'),
        failure_code: fc.option(fc.string(), { nil: null }),
        settled_at: fc.option(timestamp, { nil: null }),
      },
      { requiredKeys: [] },
    ),
    extra: extraFields,
  })
  .map(({ money: { amount, currency }, ours, extra, ...rest }) => ({
    ...extra,
    ...rest,
    ...ours,
    amount,
    currency,
  }))

export const reversal = fc
  .record({
    id: id('rv'),
    charge: id('ch'),
    instrument: id('in'),
    money,
    success: fc.boolean(),
    status: fc.constantFrom('pending', 'success', 'error'),
    failure_code: fc.option(fc.string(), { nil: null }),
    failure_description: fc.option(fc.string(), { nil: null }),
    external_ids: fc.option(transactionExternalIds, { nil: null }),
    request_log: requestLog,
    created_at: timestamp,
  })
  .map(({ money: { amount, currency }, ...rest }) => ({ ...rest, amount, currency }))

export const dispute = fc
  .record({
    id: id('dp'),
    charge: id('ch'),
    payment: id('pa'),
    money,
    reason: fc.string(),
    status: fc.constantFrom('open', 'won', 'lost'),
    created_at: timestamp,
    updated_at: timestamp,
    settled_at: fc.option(timestamp, { nil: null }),
  })
  .map(({ money: { amount, currency }, ...rest }) => ({ ...rest, amount, currency }))

export const settlement = fc.record({
  id: id('st'),
  created_at: timestamp,
  payments: fc.array(id('pa'), { maxLength: 3 }),
  refunds: fc.array(id('re'), { maxLength: 3 }),
  instruments: fc.array(id('in'), { maxLength: 3 }),
  totals: fc.array(
    fc
      .tuple(fc.constantFrom(...currencies), minorUnits(0n), minorUnits(0n))
      .map(([currency, payments, refunds]) => ({
        currency,
        payments_amount: fromMinorUnits(payments, currency),
        refunds_amount: fromMinorUnits(refunds, currency),
        net_amount: fromMinorUnits(payments - refunds, currency),
      })),
    { maxLength: 2 },
  ),
})

const objectFor = {
  charge,
  instrument,
  payment,
  refund,
  reversal,
  dispute,
} as const

// The objects each family's events must carry (mirrors the package's rule, written out here so
// the test does not just restate the implementation).
const requiredObjects: Record<string, readonly (keyof typeof objectFor)[]> = {
  charge: ['charge'],
  instrument: ['charge', 'instrument'],
  payment: ['charge', 'instrument', 'payment'],
  refund: ['charge', 'instrument', 'payment', 'refund'],
  reversal: ['charge', 'instrument', 'reversal'],
  dispute: ['charge', 'instrument', 'payment', 'dispute'],
}

export function requiredObjectsOf(type: EventType): readonly (keyof typeof objectFor)[] {
  return requiredObjects[eventTypes[type].family] ?? []
}

const optionalObject = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof(arbitrary, fc.constant(null), fc.constant(undefined))

/** A full-form event of a known type, carrying at least the objects its family requires. */
export const knownEvent = fc
  .constantFrom(...eventTypeList)
  .chain((type) => {
    const required = new Set(requiredObjectsOf(type))
    const objects = Object.fromEntries(
      Object.entries(objectFor).map(([key, arbitrary]) => [
        key,
        required.has(key as keyof typeof objectFor)
          ? arbitrary
          : optionalObject(arbitrary as fc.Arbitrary<unknown>),
      ]),
    ) as Record<string, fc.Arbitrary<unknown>>
    return fc.record({
      id: id('ev'),
      created_at: timestamp,
      object_id: fc.string(),
      result_status: fc.integer({ min: 0, max: 599 }),
      retries_log: fc.array(
        fc.record({ created_at: timestamp, result_status: fc.integer({ min: 0, max: 599 }) }),
        { maxLength: 4 },
      ),
      type: fc.constant(type),
      type_label: fc.constant(eventTypes[type].label),
      ...objects,
      settlement: optionalObject(settlement),
      dismissed_at: fc.option(timestamp, { nil: null }),
      delivery_status: fc.constantFrom('none', 'pending', 'delivered', 'failing', 'exhausted'),
      next_attempt_at: fc.option(timestamp, { nil: null }),
    })
  })
  .map(dropUndefined)

/** Drops keys whose value is undefined: an absent object, as JSON would carry it. */
function dropUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T
}
