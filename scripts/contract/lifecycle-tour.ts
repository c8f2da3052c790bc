// The contract's lifecycle tour: every operation of the table, every event type and the error
// answers, called the way merchants call them (the server and browser clients of
// @chargekit/client, a browser for the 3-D Secure page), each exchange recorded. The contract
// check runs it through a validating proxy; `pnpm contract:record` keeps its answers as the
// OpenAPI document's examples.
import { createClient, type FetchLike } from '@chargekit/client'
import { createBrowserClient } from '@chargekit/client/browser'
import { encodeTestAmount } from '@chargekit/errors'
import { eventTypeList, type Payment } from '@chargekit/schemas'
import {
  eventsStream,
  type Operation,
  openapiRetrieve,
  operationTable,
  pathPattern,
} from '@chargekit/schemas/operations'

/** One request and its answer, as it went over the wire. */
export interface Exchange {
  /** The operation of the table it matched, if any. */
  operation: string | undefined
  method: string
  /** Under the origin, with the query. */
  url: string
  requestBody: unknown
  status: number
  responseBody: unknown
  headers: Headers
}

export interface TourTarget {
  /** Where the tour sends its requests: the sandbox, or a proxy in front of it. */
  baseUrl: string
  account: { id: string; privateKey: string; publicKey: string }
  /** The merchant's events_url: it must answer 2xx. */
  eventsUrl: string
}

export interface TourResult {
  exchanges: Exchange[]
  /** The types of every event the tour's charges produced. */
  eventTypes: Set<string>
}

const matchers = operationTable.map((operation) => ({
  operation: operation as Operation,
  pattern: pathPattern(operation.path),
}))

/** The operation of the table `method path` is, if any. */
export function operationOf(method: string, path: string): Operation | undefined {
  return matchers.find(
    ({ operation, pattern }) => operation.method === method && pattern.test(path),
  )?.operation
}

const parse = (text: string): unknown => {
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** A fetch that records every exchange. */
export function recordingFetch(exchanges: Exchange[]): FetchLike {
  return async (input, init) => {
    const request = new Request(input, init)
    const requestText = init?.body === undefined || init.body === null ? '' : String(init.body)
    const response = await fetch(request)
    const text = await response.clone().text()
    const url = new URL(request.url)
    exchanges.push({
      operation: operationOf(request.method, url.pathname)?.id,
      method: request.method,
      url: url.pathname + url.search,
      requestBody: parse(requestText),
      status: response.status,
      responseBody: parse(text),
      headers: response.headers,
    })
    return response
  }
}

const card = {
  name: 'Ada Lovelace',
  number: '4242424242424242',
  expiration_month: 12,
  expiration_year: new Date().getUTCFullYear() + 3,
  cvc: '123',
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Whatever a call threw; a tour step that must fail records its answer this way. */
const failure = (promise: PromiseLike<unknown>) =>
  Promise.resolve(promise).then(
    () => {
      throw new Error('expected the call to fail')
    },
    (error: unknown) => error,
  )

/**
 * Runs the tour against `target`. Every step waits for its answer; the acquirer's later answers
 * are waited for by polling, so the tour needs a sandbox with a short time scale.
 */
export async function runLifecycleTour(target: TourTarget): Promise<TourResult> {
  const exchanges: Exchange[] = []
  const fetch = recordingFetch(exchanges)
  const client = createClient({
    baseUrl: target.baseUrl,
    accountId: target.account.id,
    privateKey: target.account.privateKey,
    fetch,
    maxRetries: 0,
  })
  const browser = createBrowserClient({
    baseUrl: target.baseUrl,
    publicKey: target.account.publicKey,
    fetch,
    maxRetries: 0,
  })
  const charge = (extra: Record<string, unknown> = {}) =>
    client.charges.create({
      charge_type: 'card_onetime',
      amount: 25.5,
      currency: 'EUR',
      events_url: target.eventsUrl,
      metadata: { order_id: 'ord_1042' },
      ...extra,
    } as Parameters<typeof client.charges.create>[0])
  const chargeIds: string[] = []
  const tracked = async (extra: Record<string, unknown> = {}) => {
    const created = await charge(extra)
    chargeIds.push(created.id)
    return created
  }
  const coded = (code: string, element: Parameters<typeof encodeTestAmount>[1]) => ({
    amount: encodeTestAmount(code, element),
  })
  const declinedId = async (promise: Promise<unknown>, kind: string) => {
    const error = (await failure(promise)) as { ids?: Record<string, string> }
    const id = error.ids?.[kind]
    if (id !== undefined && kind === 'charge') chargeIds.push(id)
    return id
  }
  const eventually = async (check: () => Promise<boolean>) => {
    for (let attempt = 0; attempt < 200; attempt++) {
      if (await check()) return
      await settle(25)
    }
    throw new Error('the sandbox did not get there in time')
  }

  // A captured card payment: charge, instrument (captured on creation), refunds both ways, a
  // dispute decided, a settlement.
  const paid = await tracked()
  await client.charges.retrieve(paid.id)
  const instrument = await client.instruments.create({ charge: paid.id, ...card })
  await client.instruments.retrieve(instrument.id)
  const [payment] = (await client.payments.list({ instrument: instrument.id })).collection
  if (payment === undefined) throw new Error('the instrument was not captured on creation')
  await client.payments.retrieve(payment.id)
  const refund = await client.payments.refund(payment.id, { amount: 5, description: 'Returned' })
  await client.refunds.create({ payment: payment.id, amount: 2.5 })
  await client.refunds.retrieve(refund.id)
  await client.refunds.list({ payment: payment.id })
  const dispute = await client.testHelpers.dispute(payment.id, { amount: 1, reason: 'fraud' })
  await client.testHelpers.settleDispute(dispute.id, { outcome: 'won' })
  await client.disputes.retrieve(dispute.id)
  await client.disputes.list({ payment: payment.id })
  const settlement = await client.testHelpers.settle()
  await client.settlements.retrieve(settlement.id)
  await client.settlements.list()

  // A capture of its own, then a reversal and an invalidation of authorizations.
  const held = await tracked({ instrument_params: { captured_on_creation: false } })
  const heldInstrument = await client.instruments.create({ charge: held.id, ...card })
  await client.payments.create({ instrument: heldInstrument.id, amount: 10, currency: 'EUR' })
  await client.payments.list({ charge: held.id })
  const voided = await tracked({ instrument_params: { captured_on_creation: false } })
  const voidedInstrument = await client.instruments.create({ charge: voided.id, ...card })
  const reversal = await client.instruments.reverse(voidedInstrument.id)
  await client.reversals.retrieve(reversal.id)
  await client.reversals.list({ instrument: voidedInstrument.id })
  const dropped = await tracked({ instrument_params: { captured_on_creation: false } })
  await client.instruments.invalidate(
    (await client.instruments.create({ charge: dropped.id, ...card })).id,
  )
  await client.instruments.list({ charge: dropped.id })
  await client.charges.list({ metadata: { order_id: 'ord_1042' }, per_page: 5 })

  // The browser's checkout with the public key, confirmed by the merchant's server.
  await browser.charges.types()
  const started = await browser.charges.create({
    charge_type: 'card_onetime',
    amount: 12,
    currency: 'EUR',
    events_url: target.eventsUrl,
  })
  chargeIds.push(started.id)
  await browser.charges.retrieve(started.id)
  await client.charges.confirm(started.id)
  const fromBrowser = await browser.instruments.create({ charge: started.id, ...card })
  await browser.instruments.retrieve(fromBrowser.id)

  // Declines coded in the amount, at every step: charge.error, instrument.invalid and
  // instrument.risk, payment.error, refund.error, reversal.error.
  await declinedId(tracked(coded('02.04.0000', 'charge')), 'charge')
  for (const [code, element] of [
    ['06.02.0000', 'instrument'],
    ['03.03.0000', 'payment'],
  ] as const) {
    const declined = await tracked(coded(code, element))
    await failure(client.instruments.create({ charge: declined.id, ...card }))
  }
  const refundDeclined = await tracked(coded('02.03.0000', 'refund'))
  const refundable = await client.instruments.create({ charge: refundDeclined.id, ...card })
  const [refundablePayment] = (await client.payments.list({ instrument: refundable.id })).collection
  await failure(client.payments.refund(refundablePayment?.id ?? '', { amount: 1 }))
  const reversalDeclined = await tracked(coded('04.01.0000', 'reversal'))
  await failure(
    client.instruments.invalidate(
      (await client.instruments.create({ charge: reversalDeclined.id, ...card })).id,
    ),
  )

  // 3-D Secure: the instrument waits; the customer's browser opens the page and authorizes.
  const secure = await tracked({ instrument_params: { enable3ds: true } })
  const waiting = await client.instruments.create({ charge: secure.id, ...card })
  const redirectUrl = waiting.redirect?.url
  if (typeof redirectUrl !== 'string')
    throw new Error('a 3-D Secure instrument has no redirect URL')
  // Through `target`, not the sandbox's own address the URL names.
  const { pathname, search } = new URL(redirectUrl)
  const page = await fetch(`${target.baseUrl}${pathname}${search}`, { method: 'GET' })
  const html = await page.text()
  const action = /action="([^"]+)"/.exec(html)?.[1]
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1]
  if (action === undefined || token === undefined) throw new Error('no challenge form on the page')
  await fetch(`${target.baseUrl}${action.replaceAll('&amp;', '&')}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, outcome: 'authorize' }).toString(),
    redirect: 'manual',
  })

  // The customer's answers to methods that wait for them.
  for (const [chargeType, answer] of [
    ['mbway', 'approveInstrument'],
    ['paypal', 'declineInstrument'],
    ['multibanco', 'payReference'],
    ['payshop_reference', 'expireInstrument'],
  ] as const) {
    const waitingCharge = await tracked({ charge_type: chargeType })
    const request =
      chargeType === 'mbway'
        ? { charge: waitingCharge.id, phone_number: '912345678' }
        : { charge: waitingCharge.id }
    const pending = await client.instruments.create(request)
    await client.testHelpers[answer](pending.id)
  }

  // The acquirer answers later: payment.pending, refund.pending, reversal.pending.
  const acquirer = { channels: ['card_onetime_simulated_acquirer'] }
  const slow = await tracked(acquirer)
  const slowInstrument = await client.instruments.create({ charge: slow.id, ...card })
  let slowPayment: Payment | undefined
  await eventually(async () => {
    slowPayment = (await client.payments.list({ instrument: slowInstrument.id })).collection[0]
    return slowPayment?.status === 'success'
  })
  await client.refunds.create({ payment: slowPayment?.id ?? '', amount: 1 })
  const slowHeld = await tracked({
    ...acquirer,
    instrument_params: { captured_on_creation: false },
  })
  await client.instruments.invalidate(
    (await client.instruments.create({ charge: slowHeld.id, ...card })).id,
  )
  await client.testHelpers.settle()

  // Error answers: refused fields, wrong credentials, the public key beyond its scope, an
  // unknown id, an illegal transition, a reused Idempotency-Key.
  await failure(client.charges.create({ amount: 'x' } as never))
  await failure(
    createClient({
      baseUrl: target.baseUrl,
      accountId: target.account.id,
      privateKey: 'sk_wrong',
      fetch,
      maxRetries: 0,
    }).charges.list(),
  )
  await failure(browser.charges.create({ ...chargeBody(target), confirmed: true }))
  await failure(client.payments.retrieve('pa_missing'))
  await failure(
    client.payments.create({ instrument: heldInstrument.id, amount: 100, currency: 'EUR' }),
  )
  await client.charges.create(chargeBody(target), { idempotencyKey: 'tour-key' })
  await failure(
    client.charges.create({ ...chargeBody(target), amount: 13 }, { idempotencyKey: 'tour-key' }),
  )
  await failure(client.events.list({ per_page: 1000 }))

  // Every event of the tour's charges, listed and fetched one by one, redelivered, dismissed.
  const eventTypes = new Set<string>()
  await eventually(async () => {
    const types = new Set<string>()
    for (const id of chargeIds) {
      for await (const event of client.events.list({ charge: id, per_page: 100 })) {
        types.add(event.type)
      }
    }
    return eventTypeList.every((type) => types.has(type))
  })
  for (const id of chargeIds) {
    for await (const event of client.events.list({ charge: id, per_page: 100 })) {
      if (eventTypes.has(event.type)) continue
      eventTypes.add(event.type)
      await client.events.retrieve(event.id)
    }
  }
  const [latest] = (await client.events.list({ type: ['payment.success', 'refund.success'] }))
    .collection
  if (latest !== undefined) {
    await client.events.redeliver(latest.id)
    await client.events.dismiss(latest.id)
  }
  await client.testHelpers.listRequests({ per_page: 5 })
  await client.testHelpers.signingSecret()
  // The event stream stays open, which a validating proxy cannot wait out: the tour calls it with
  // a Last-Event-ID that names no event (refused with 400, as the document's pattern says).
  await fetch(`${target.baseUrl}${eventsStream.path}`, {
    method: 'GET',
    headers: {
      authorization: `Basic ${btoa(`${target.account.id}:${target.account.privateKey}`)}`,
      'last-event-id': 'not-an-event',
    },
  })
  await fetch(`${target.baseUrl}${openapiRetrieve.path}`, { method: 'GET' })
  return { exchanges, eventTypes }
}

function chargeBody(target: TourTarget) {
  return {
    charge_type: 'card_onetime',
    amount: 12,
    currency: 'EUR',
    events_url: target.eventsUrl,
  }
}
