import { randomUUID } from 'node:crypto'
import { expect } from 'vitest'
import { authorization, type Receiver, testCard } from '../src/testing/index'
import { type CliProcess, cli } from './cli-process'

/**
 * Helpers for tests that run the CLI with timed work pending: load on the simulated acquirer
 * (captures and refunds answered later, settlement batches a scaled day later) delivering to a
 * receiver, and what the state must look like once every piece of that work has run.
 */

/** 28 h of delivery schedule in 0.3 s, a settlement day in a quarter of a second. */
export const timeScale = 0.000003
export const settlementDelayMs = 24 * 3_600_000 * timeScale

const credentials = authorization('acct_sandbox', 'sk_sandbox')

export interface RunningSandbox {
  run: CliProcess
  api: string
  /** Date.now() when it said it was listening. */
  readyAt: number
}

export async function startCli(args: string[]): Promise<RunningSandbox> {
  const run = cli(['--port', '0', '--quiet', '--time-scale', String(timeScale), ...args])
  const [, url] = await run.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/)
  return { run, api: `${url}/v2`, readyAt: Date.now() }
}

/** One API call; undefined when the connection died before an answer (the process was killed). */
export async function call(
  api: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> } | undefined> {
  try {
    const response = await fetch(`${api}${path}`, {
      method,
      headers: {
        authorization: credentials,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        'idempotency-key': randomUUID(),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  } catch {
    return undefined
  }
}

/**
 * A receiver rule: the first five attempts at every third event fail, so its retries are
 * pending for a tenth of a second (the scaled schedule); the others succeed at once.
 */
export function failingSomeDeliveries() {
  const attempts = new Map<string, number>()
  const order: string[] = []
  return ({ id }: { id: string }) => {
    if (!attempts.has(id)) order.push(id)
    const seen = (attempts.get(id) ?? 0) + 1
    attempts.set(id, seen)
    return order.indexOf(id) % 3 === 0 && seen <= 5 ? 500 : 200
  }
}

/**
 * `clients` loops over the sandboxes in turn, each round a charge on the simulated acquirer
 * captured on creation (its payment pending until the acquirer answers) and a refund of the
 * previous round's payment once it succeeded, until `stop()` says so or a call gets no answer.
 * `onAcknowledged` sees every 2xx.
 */
export async function loadUntil(
  apis: readonly string[],
  eventsUrl: string,
  clients: number,
  stop: () => boolean,
  onAcknowledged: () => void = () => {},
): Promise<void> {
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      let previousPayment: string | undefined
      for (let round = 0; !stop(); round++) {
        const api = apis[(client + round) % apis.length] as string
        const charge = await call(api, 'POST', '/charges', {
          charge_type: 'card_onetime',
          amount: 20,
          currency: 'EUR',
          events_url: eventsUrl,
          channels: ['card_onetime_simulated_acquirer'],
          metadata: { client, round },
        })
        if (charge === undefined) return
        expect(charge.status, JSON.stringify(charge.body)).toBe(201)
        onAcknowledged()
        if (stop()) return
        const instrument = await call(api, 'POST', '/instruments', testCard(String(charge.body.id)))
        if (instrument === undefined) return
        expect(instrument.status, JSON.stringify(instrument.body)).toBe(201)
        onAcknowledged()
        if (previousPayment !== undefined && !stop()) {
          const refund = await call(api, 'POST', `/payments/${previousPayment}/refund`, {
            amount: 1,
          })
          if (refund === undefined) return
          // 409 while the acquirer has not confirmed the payment yet.
          expect([201, 409], JSON.stringify(refund.body)).toContain(refund.status)
          if (refund.status === 201) onAcknowledged()
        }
        const payments = await call(api, 'GET', `/payments?charge=${charge.body.id}`)
        if (payments === undefined) return
        previousPayment = (payments.body.collection as { id: string }[])[0]?.id
      }
    }),
  )
}

/** Every item of a list, all pages. */
export async function listAll<T>(api: string, path: string): Promise<T[]> {
  const items: T[] = []
  for (let page = 1; ; page++) {
    const separator = path.includes('?') ? '&' : '?'
    const answer = await call(api, 'GET', `${path}${separator}per_page=100&page=${page}`)
    expect(answer?.status).toBe(200)
    const collection = answer?.body.collection as T[]
    items.push(...collection)
    if (collection.length < 100) return items
  }
}

interface EventJson {
  id: string
  type: string
  object_id: string
  created_at: string
  delivery_status: string
}

interface MovementJson {
  id: string
  status: string
  settled_at: string | null
  instrument?: { id: string }
}

export interface FinalState {
  events: EventJson[]
  payments: MovementJson[]
  refunds: MovementJson[]
}

const finished = (object: MovementJson) => object.status === 'success' && object.settled_at !== null

/**
 * The sandbox's payments, refunds and events; while `stopEarly`, undefined at the first thing
 * not finished yet, so that waiting reads little and leaves the sandbox to its work.
 */
async function readState(
  api: string,
  receiver: Receiver,
  stopEarly: boolean,
): Promise<FinalState | undefined> {
  const payments = await listAll<MovementJson & { refunds: { id: string }[] }>(api, '/payments')
  if (stopEarly && !payments.every(finished)) return undefined
  const refunds: MovementJson[] = []
  for (const { id } of payments.flatMap((payment) => payment.refunds)) {
    const refund = await call(api, 'GET', `/refunds/${id}`)
    expect(refund?.status).toBe(200)
    const body = refund?.body as unknown as MovementJson
    if (stopEarly && !finished(body)) return undefined
    refunds.push(body)
  }
  const events = await listAll<EventJson>(api, '/events')
  // A settlement batch marks its payments settled first, then records its events one by one.
  const recorded = new Set(events.map((event) => `${event.type} ${event.object_id}`))
  const settlementEvents = [
    ...payments.flatMap((payment) => [
      `payment.settled ${payment.id}`,
      `instrument.settled ${payment.instrument?.id}`,
    ]),
    ...refunds.map((refund) => `refund.settled ${refund.id}`),
  ]
  if (stopEarly && !settlementEvents.every((event) => recorded.has(event))) return undefined
  const received = new Set(receiver.received.map(({ id }) => id))
  const delivered = (event: EventJson) =>
    event.delivery_status === 'delivered' && received.has(event.id)
  if (stopEarly && !events.every(delivered)) return undefined
  return { events, payments, refunds }
}

/**
 * Waits until every payment and refund is answered and settled and every event delivered, then
 * checks the timed work ran exactly once: one answer event and one settlement event per
 * payment and refund, one `instrument.settled` per instrument, and every event received.
 */
export async function expectAllTimedWorkDone(
  api: string,
  receiver: Receiver,
  limitMs = 12_000,
): Promise<FinalState> {
  const deadline = Date.now() + limitMs
  let read: FinalState | undefined
  while (read === undefined) {
    read = await readState(api, receiver, Date.now() < deadline)
    if (read === undefined) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const state = read
  const received = new Set(receiver.received.map(({ id }) => id))
  const undelivered = state.events.filter(
    (event) => event.delivery_status !== 'delivered' || !received.has(event.id),
  )
  expect(undelivered, 'events not delivered').toEqual([])
  const unfinished = [...state.payments, ...state.refunds].filter((object) => !finished(object))
  expect(unfinished, 'payments and refunds not answered or not settled').toEqual([])

  const count = (type: string, objectId: string) =>
    state.events.filter((event) => event.type === type && event.object_id === objectId).length
  for (const payment of state.payments) {
    expect(count('payment.pending', payment.id), payment.id).toBe(1)
    expect(count('payment.success', payment.id), payment.id).toBe(1)
    expect(count('payment.settled', payment.id), payment.id).toBe(1)
    expect(count('instrument.settled', payment.instrument?.id ?? ''), payment.id).toBe(1)
  }
  for (const refund of state.refunds) {
    expect(count('refund.pending', refund.id), refund.id).toBe(1)
    expect(count('refund.success', refund.id), refund.id).toBe(1)
    expect(count('refund.settled', refund.id), refund.id).toBe(1)
  }
  return state
}
