import type { ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { systemClock } from '../src/clock'
import {
  createDeliveryEngine,
  type DeliveryAttempt,
  type DeliveryEngine,
  type DeliveryEngineOptions,
  type DeliveryJob,
  type DeliveryProgress,
} from '../src/delivery/index'
import { createMemoryWorkQueue } from '../src/storage/memory-work-queue'
import { eventually, type Receiver, startReceiver, TestClock } from '../src/testing/index'
import { trackDeliveryTimers } from './delivery-timers'

interface Report {
  job: DeliveryJob
  attempt: DeliveryAttempt
  next: DeliveryProgress | undefined
}

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function timers() {
  const tracker = trackDeliveryTimers()
  cleanups.push(async () => tracker.stop())
  return tracker
}

/** Resolves when `condition()` holds; rejects after `timeoutMs` naming `what`. */
const until = (condition: () => boolean, timeoutMs = 15_000, what = 'condition') =>
  eventually(condition, { timeoutMs, what })

async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...args)
  cleanups.push(() => started.stop())
  return started
}

/**
 * An engine on its own memory work queue, as the sandbox runs it: `enqueue` stores a job's work
 * (the queue announces it to the engine), and a job a 2xx answered (a manual redelivery
 * included) has no automatic attempt left. Its time is `clock`'s: retries and time-outs wait
 * for the test.
 */
function engine(options: Partial<DeliveryEngineOptions> = {}) {
  const clock = new TestClock()
  const reports: Report[] = []
  const errors: unknown[] = []
  const queue = createMemoryWorkQueue()
  const jobs = new Map<string, DeliveryJob>()
  const delivered = new Set<string>()
  /** Events whose due automatic attempt found them delivered, and so sent nothing. */
  const skipped: string[] = []
  const created: DeliveryEngine = createDeliveryEngine({
    queue,
    clock,
    loadJob: async (_accountId, eventId) => {
      if (!delivered.has(eventId)) return jobs.get(eventId)
      skipped.push(eventId)
      return undefined
    },
    onAttempt: async (job, attempt, next) => {
      if (attempt.resultStatus >= 200 && attempt.resultStatus < 300) delivered.add(job.eventId)
      reports.push({ job, attempt, next })
    },
    onError: (error) => errors.push(error),
    ...options,
  })
  cleanups.push(() => created.close())
  const deliveries = {
    /** Stores the job's work as of an event created now, by the engine's clock. */
    async enqueue(job: DeliveryJob, createdAt = new Date(clock.now())) {
      jobs.set(job.eventId, job)
      await queue.add([created.workFor(job, createdAt)])
    },
    redeliver: (job: DeliveryJob) => created.redeliver(job),
    close: () => created.close(),
  }
  const reportsFor = (eventId: string) => reports.filter((report) => report.job.eventId === eventId)
  const isSettled = (eventId: string) =>
    reportsFor(eventId).some(({ next }) => next !== undefined && isFinal(next))
  /** Moves the clock to the retry the event's latest report announced, if it is still ahead. */
  const toNextRetry = (eventId: string) => {
    const due = nextAttemptAt(reportsFor(eventId).at(-1)?.next)?.getTime()
    if (due !== undefined && due > clock.now()) clock.advance(due - clock.now())
  }
  /** Resolves once the event's delivery ended, moving the clock to each of its retries. */
  const settled = (eventId: string) =>
    until(
      () => {
        if (isSettled(eventId)) return true
        toNextRetry(eventId)
        return false
      },
      15_000,
      `final report for ${eventId}`,
    )
  /** Resolves once the event's delivery ended without the clock moving. */
  const settledNow = (eventId: string) =>
    until(() => isSettled(eventId), 15_000, `final report for ${eventId}`)
  return {
    engine: deliveries,
    clock,
    reports,
    errors,
    skipped,
    reportsFor,
    settled,
    settledNow,
    toNextRetry,
  }
}

const isFinal = (next: DeliveryProgress) =>
  next.state === 'delivered' || next.state === 'schedule-ended'
const nextAttemptAt = (next: DeliveryProgress | undefined) =>
  next !== undefined && 'nextAttemptAt' in next ? next.nextAttemptAt : null

let sequence = 0
function job(eventsUrl: string, overrides: Partial<DeliveryJob> = {}): DeliveryJob {
  sequence++
  const eventId = overrides.eventId ?? `ev_${sequence}`
  const eventType = overrides.eventType ?? 'charge.created'
  return {
    accountId: 'acct_test',
    eventId,
    eventType,
    chargeId: `ch_${sequence}`,
    eventsUrl: `${eventsUrl}/hooks`,
    body: JSON.stringify({ id: eventId, type: eventType, sequence }),
    ...overrides,
  }
}

describe('delivery engine', () => {
  it('POSTs the job body as JSON with event and event_type query parameters, once on a 2xx', async () => {
    const merchant = await receiver(() => 204)
    const { engine: deliveries, reports, settled } = engine()
    const event = job(merchant.url, { eventType: 'instrument.authorized' })
    event.eventsUrl = `${merchant.url}/hooks?shop=7`

    await deliveries.enqueue(event)
    await settled(event.eventId)
    await deliveries.close()

    expect(merchant.received).toHaveLength(1)
    const [delivery] = merchant.received
    expect(delivery?.method).toBe('POST')
    expect(delivery?.url.pathname).toBe('/hooks')
    expect(delivery?.url.searchParams.get('shop')).toBe('7')
    expect(delivery?.url.searchParams.get('event')).toBe(event.eventId)
    expect(delivery?.url.searchParams.get('event_type')).toBe('instrument.authorized')
    expect(delivery?.headers['content-type']).toBe('application/json')
    expect(delivery?.body).toBe(event.body)
    expect(delivery?.headers['webhook-signature']).toBeUndefined()
    expect(reports).toHaveLength(1)
    expect(reports[0]?.attempt).toMatchObject({ resultStatus: 204, kind: 'first' })
    expect(reports[0]?.next).toEqual({ state: 'delivered' })
  })

  it('sends credentials written in the events URL as Basic authorization, not in the URL', async () => {
    const merchant = await receiver(() => 204)
    const { engine: deliveries, settled } = engine()
    const event = job(merchant.url)
    event.eventsUrl = `${merchant.url.replace('//', '//shop%40example:s%3Acret@')}/hooks`

    await deliveries.enqueue(event)
    await settled(event.eventId)

    const [delivery] = merchant.received
    expect(delivery?.headers.authorization).toBe(
      `Basic ${Buffer.from('shop@example:s:cret').toString('base64')}`,
    )
    expect(delivery?.url.pathname).toBe('/hooks')
  })

  it('sends credentials that are not valid percent-encoding as they are written', async () => {
    const merchant = await receiver(() => 204)
    const { engine: deliveries, settled } = engine()
    const event = job(merchant.url)
    event.eventsUrl = `${merchant.url.replace('//', '//shop%zz:100%@')}/hooks`

    await deliveries.enqueue(event)
    await settled(event.eventId)

    expect(merchant.received[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from('shop%zz:100%').toString('base64')}`,
    )
  })

  it('retries 500, 500 then stops at the 200, reporting each next attempt time', async () => {
    const merchant = await receiver((_delivery, index) => (index < 2 ? 500 : 200))
    const { engine: deliveries, reports, settled } = engine()
    const event = job(merchant.url)

    await deliveries.enqueue(event)
    await settled(event.eventId)
    await deliveries.close()

    expect(merchant.received.map(({ id }) => id)).toEqual([
      event.eventId,
      event.eventId,
      event.eventId,
    ])
    expect(reports.map(({ attempt }) => attempt.resultStatus)).toEqual([500, 500, 200])
    expect(reports.map(({ attempt }) => attempt.kind)).toEqual(['first', 'retry', 'retry'])
    expect(reports.map(({ next }) => next?.state)).toEqual(['retrying', 'retrying', 'delivered'])
    for (const { attempt, next } of reports.slice(0, 2)) {
      expect(nextAttemptAt(next)?.getTime()).toBeGreaterThanOrEqual(attempt.at.getTime())
    }
  })

  it('records 0 for a receiver that does not answer within timeoutMs', async () => {
    const merchant = await receiver(() => 'hang')
    const {
      engine: deliveries,
      clock,
      reports,
      settled,
    } = engine({ timeoutMs: 10_000, schedule: [0] })
    const event = job(merchant.url)

    await deliveries.enqueue(event)
    await merchant.until((received) => received.length === 1)
    clock.advance(9_999)
    // The attempt's deadline is the only thing waiting, a millisecond away.
    expect(clock.nextWakeUpAt).toBe(clock.now() + 1)
    expect(reports).toEqual([])
    clock.advance(1)
    await settled(event.eventId)

    expect(merchant.received).toHaveLength(1)
    expect(reports).toHaveLength(1)
    expect(reports[0]?.attempt.resultStatus).toBe(0)
    expect(reports[0]?.next).toEqual({ state: 'schedule-ended' })
  })

  it('treats a 302 as a failure and never follows it', async () => {
    const elsewhere = await receiver(() => 200)
    const merchant = await receiver(() => (response) => {
      response.writeHead(302, { location: `${elsewhere.url}/moved` })
      response.end()
    })
    const { engine: deliveries, reports, settled } = engine({ schedule: [0, 1] })
    const event = job(merchant.url)

    await deliveries.enqueue(event)
    await settled(event.eventId)
    await deliveries.close()

    expect(reports.map(({ attempt }) => attempt.resultStatus)).toEqual([302, 302])
    expect(reports.at(-1)?.next).toEqual({ state: 'schedule-ended' })
    expect(merchant.received).toHaveLength(2)
    expect(elsewhere.received).toHaveLength(0)
  })

  it('delivers on a retry to a receiver that was down and came back', async () => {
    const merchant = await receiver(() => 200)
    await merchant.stop()
    const {
      engine: deliveries,
      reports,
      settled,
    } = engine({
      onAttempt: (job, attempt, next) => {
        reports.push({ job, attempt, next })
        if (reports.length === 1) void merchant.restart()
      },
    })
    const event = job(merchant.url)

    await deliveries.enqueue(event)
    await settled(event.eventId)

    expect(reports[0]?.attempt.resultStatus).toBe(0)
    expect(reports.at(-1)?.attempt.resultStatus).toBe(200)
    expect(reports.at(-1)?.next).toEqual({ state: 'delivered' })
    expect(merchant.received.map(({ id }) => id)).toEqual([event.eventId])
  })

  it('marks an event exhausted after the last of the 8 scheduled attempts fails', async () => {
    const merchant = await receiver(() => 503)
    const { engine: deliveries, reports, settled } = engine()
    const event = job(merchant.url)

    await deliveries.enqueue(event)
    await settled(event.eventId)
    await deliveries.close()

    expect(merchant.received).toHaveLength(8)
    expect(reports.map(({ attempt }) => attempt.resultStatus)).toEqual(Array(8).fill(503))
    expect(reports.slice(0, 7).every(({ next }) => next?.state === 'retrying')).toBe(true)
    expect(reports.at(-1)?.next).toEqual({ state: 'schedule-ended' })
  })

  it('records 0 for a TLS failure (https:// to a server that does not speak TLS)', async () => {
    const plain = await receiver(() => 200)
    const { engine: deliveries, reports, settled } = engine({ schedule: [0] })
    const event = job(plain.url.replace('http:', 'https:'))

    await deliveries.enqueue(event)
    await settled(event.eventId)

    expect(reports.map(({ attempt }) => attempt.resultStatus)).toEqual([0])
    expect(plain.received).toHaveLength(0)
  })

  it('fails an events_url it cannot request with 0 instead of throwing', async () => {
    const { engine: deliveries, reports, settled } = engine({ schedule: [0] })
    const event = job('ftp://127.0.0.1:1')

    await deliveries.enqueue(event)
    await settled(event.eventId)

    expect(reports.map(({ attempt }) => attempt.resultStatus)).toEqual([0])
  })

  it('sends a charge’s events as they are created, none waiting for the answer to another', async () => {
    // The receiver answers none of them until it holds them all: an engine that sent a charge's
    // next event only after the previous one was answered would never get past the first.
    const held: ServerResponse[] = []
    const merchant = await receiver(() => (response) => {
      held.push(response)
    })
    const { engine: deliveries, settled } = engine()
    const events = Array.from({ length: 8 }, (_, index) =>
      job(merchant.url, { chargeId: 'ch_one', eventType: `type.${index}` }),
    )

    for (const event of events) await deliveries.enqueue(event)
    await until(() => held.length === events.length, 5_000, 'all of the charge’s events at once')
    for (const response of held) response.writeHead(200).end()
    for (const event of events) await settled(event.eventId)

    expect(merchant.received.map(({ id }) => id).sort()).toEqual(
      events.map(({ eventId }) => eventId).sort(),
    )
  })

  it('does not hold back a charge’s later events while an earlier one is failing', async () => {
    const failing = job('x')
    const merchant = await receiver((delivery) => (delivery.id === failing.eventId ? 500 : 200))
    // The clock stands still, so the retry never comes: if later events waited for it, this
    // test would time out.
    const { engine: deliveries, reportsFor, settledNow } = engine({ schedule: [0, 3_600_000] })
    failing.eventsUrl = merchant.url
    const later = [1, 2].map(() => job(merchant.url, { chargeId: failing.chargeId }))

    await deliveries.enqueue(failing)
    for (const event of later) await deliveries.enqueue(event)
    for (const event of later) await settledNow(event.eventId)

    expect(reportsFor(failing.eventId)).toHaveLength(1)
    expect(nextAttemptAt(reportsFor(failing.eventId)[0]?.next)).not.toBeNull()
    expect(merchant.received.map(({ id }) => id).sort()).toEqual(
      [failing.eventId, ...later.map(({ eventId }) => eventId)].sort(),
    )
  })

  it('keeps delivering to other receivers while one hangs, and close() aborts the hung ones', async () => {
    const slow = await receiver(() => 'hang')
    const quick = await receiver(() => 200)
    const {
      engine: deliveries,
      reports,
      settledNow,
    } = engine({
      concurrency: 4,
      perOriginConcurrency: 2,
      // Far beyond the test: the hung attempts must end by close(), not by timing out.
      timeoutMs: 120_000,
    })
    const stuck = Array.from({ length: 10 }, () => job(slow.url))
    const others = Array.from({ length: 10 }, () => job(quick.url))

    for (const event of stuck) await deliveries.enqueue(event)
    for (const event of others) await deliveries.enqueue(event)
    for (const event of others) await settledNow(event.eventId)
    await slow.until((received) => received.length === 2)

    expect(slow.received).toHaveLength(2)
    expect(reports.filter(({ job }) => job.eventsUrl.startsWith(slow.url))).toHaveLength(0)

    await deliveries.close()
    await until(() => slow.openConnections() === 0, 5_000, 'hung sockets closed')
    expect(reports.filter(({ job }) => job.eventsUrl.startsWith(slow.url))).toHaveLength(0)
  })

  it('sends an event the moment its work is stored, with no polling tick to wait for', async () => {
    const merchant = await receiver(() => 200)
    // The engine would only look for work once a minute on its own: the queue's announcement of
    // the stored work is what starts the attempt.
    const { engine: deliveries, settled } = engine({ pollMs: 60_000 })
    const [first, second] = [job(merchant.url), job(merchant.url)]

    await deliveries.enqueue(first)
    await settled(first.eventId)
    // Stored long after the engine's last look at the queue.
    await deliveries.enqueue(second)
    await settled(second.eventId)

    expect(merchant.received.map(({ id }) => id)).toEqual([first.eventId, second.eventId])
  })

  it('sends a backlog beyond a receiver’s slots and waiting line as fast as the receiver answers', async () => {
    const merchant = await receiver(() => 200)
    // Two slots and a line of two: most of the 40 events are turned away at first. Turned-away
    // attempts used to come back a quarter of the timeout later (15 s here), which this test
    // would not survive; paced at the receiver's answers, they all arrive within moments.
    // The pace is measured between the receiver's real answers, so this engine runs on real time.
    const { engine: deliveries, settled } = engine({
      perOriginConcurrency: 2,
      timeoutMs: 60_000,
      clock: systemClock,
    })
    const events = Array.from({ length: 40 }, () => job(merchant.url))

    for (const event of events) await deliveries.enqueue(event)
    for (const event of events) await settled(event.eventId)

    expect(new Set(merchant.received.map(({ id }) => id))).toEqual(
      new Set(events.map(({ eventId }) => eventId)),
    )
    expect(merchant.received).toHaveLength(40)
  })

  it('pulls a recovered receiver’s waiting retries forward, within its concurrency', async () => {
    let down = true
    let open = 0
    let mostOpen = 0
    const merchant = await receiver(() =>
      down
        ? 500
        : (response) => {
            mostOpen = Math.max(mostOpen, ++open)
            setTimeout(() => {
              open--
              response.writeHead(200).end()
            }, 2)
          },
    )
    // The retries are an hour away: only catching up delivers them within the test. Two slots
    // and a line of two: most first attempts are turned away before they fail, and the backlog
    // is more than the lane can take at once. The lanes pace turned-away attempts on real time.
    const {
      engine: deliveries,
      reportsFor,
      settledNow,
    } = engine({ schedule: [0, 3_600_000], perOriginConcurrency: 2, clock: systemClock })
    const waiting = Array.from({ length: 12 }, () => job(merchant.url))
    for (const event of waiting) await deliveries.enqueue(event)
    await until(
      () => waiting.every((event) => reportsFor(event.eventId).length === 1),
      15_000,
      'a failed first attempt of every event',
    )
    expect(waiting.map((event) => reportsFor(event.eventId)[0]?.next?.state)).toEqual(
      waiting.map(() => 'retrying'),
    )

    down = false
    const recovered = job(merchant.url)
    await deliveries.enqueue(recovered)
    for (const event of [recovered, ...waiting]) await settledNow(event.eventId)

    for (const event of waiting) {
      expect(reportsFor(event.eventId).map(({ attempt }) => attempt.resultStatus)).toEqual([
        500, 200,
      ])
    }
    expect(mostOpen).toBeLessThanOrEqual(2)
    expect(merchant.received).toHaveLength(2 * waiting.length + 1)
  })

  it('leaves another receiver’s waiting retries, and another account’s, on their schedule', async () => {
    let down = true
    const merchant = await receiver(() => (down ? 503 : 200))
    const other = await receiver(() => (down ? 503 : 200))
    const { engine: deliveries, reportsFor, settledNow } = engine({ schedule: [0, 3_600_000] })
    // Two failed first attempts in a row each: every one of these receivers is down.
    const own = [job(merchant.url), job(merchant.url)]
    const elsewhere = [job(other.url), job(other.url)]
    const otherAccount = [1, 2].map(() => job(merchant.url, { accountId: 'acct_other' }))
    const waiting = [...own, ...elsewhere, ...otherAccount]
    for (const event of waiting) await deliveries.enqueue(event)
    await until(
      () => waiting.every((event) => reportsFor(event.eventId).length === 1),
      15_000,
      'a failed first attempt of every event',
    )

    down = false
    const recovered = job(merchant.url)
    await deliveries.enqueue(recovered)
    for (const event of [recovered, ...own]) await settledNow(event.eventId)
    // One more delivery after the catch-up: anything it pulled forward has been sent by then.
    const after = job(merchant.url)
    await deliveries.enqueue(after)
    await settledNow(after.eventId)

    expect(other.received).toHaveLength(2)
    for (const event of [...elsewhere, ...otherAccount]) {
      expect(reportsFor(event.eventId)).toHaveLength(1)
    }
  })

  it('retries an event its receiver refuses on its schedule, while others are delivered', async () => {
    const refused = job('x')
    const merchant = await receiver((delivery) => (delivery.id === refused.eventId ? 500 : 200))
    refused.eventsUrl = `${merchant.url}/hooks`
    const { engine: deliveries, reportsFor, settledNow } = engine({ schedule: [0, 3_600_000] })

    await deliveries.enqueue(refused)
    await until(() => reportsFor(refused.eventId).length === 1, 15_000, 'the refused attempt')
    const others = [job(merchant.url), job(merchant.url), job(merchant.url)]
    for (const event of others) {
      await deliveries.enqueue(event)
      await settledNow(event.eventId)
    }

    // One refusal is no outage: the retry an hour away stays there.
    expect(reportsFor(refused.eventId)).toHaveLength(1)
    expect(merchant.received).toHaveLength(4)
  })

  it('keeps going when onAttempt throws, passing the error to onError', async () => {
    const merchant = await receiver(() => 200)
    const seen: string[] = []
    const { engine: deliveries, errors } = engine({
      onAttempt: (job) => {
        seen.push(job.eventId)
        throw new Error(`storage down for ${job.eventId}`)
      },
    })
    const [first, second] = [job(merchant.url), job(merchant.url)]

    await deliveries.enqueue(first)
    await deliveries.enqueue(second)
    await until(() => seen.length === 2)

    expect(errors.map(String).sort()).toEqual(
      [first, second].map(({ eventId }) => `Error: storage down for ${eventId}`).sort(),
    )
  })
})

describe('manual redelivery', () => {
  it('makes one immediate attempt, reported as manual and changing no schedule', async () => {
    const merchant = await receiver(() => 200)
    const { engine: deliveries, reports, settled } = engine()
    const event = job(merchant.url)
    await deliveries.enqueue(event)
    await settled(event.eventId)

    const attempt = await deliveries.redeliver(event)

    expect(attempt).toMatchObject({ resultStatus: 200, kind: 'manual' })
    expect(reports.at(-1)?.attempt).toEqual(attempt)
    expect(reports.at(-1)?.next).toBeUndefined()
    expect(merchant.received.map(({ id }) => id)).toEqual([event.eventId, event.eventId])
  })

  it('stops the automatic retries of an event a manual attempt delivered', async () => {
    const event = job('x')
    const marker = job('x')
    let healthy = false
    const merchant = await receiver(() => (healthy ? 200 : 500))
    event.eventsUrl = merchant.url
    marker.eventsUrl = merchant.url
    // One attempt at a time: the marker's retry is due after the event's, so the event's retry
    // would reach the receiver first if it had not been cancelled.
    const {
      engine: deliveries,
      clock,
      reportsFor,
      settled,
    } = engine({ schedule: [0, 150], concurrency: 1 })
    await deliveries.enqueue(event)
    await until(() => reportsFor(event.eventId).length === 1)
    const pending = nextAttemptAt(reportsFor(event.eventId)[0]?.next)

    healthy = true
    const manual = await deliveries.redeliver(event)
    healthy = false
    clock.advance(1)
    await deliveries.enqueue(marker)
    await until(() => reportsFor(marker.eventId).length === 1)
    healthy = true
    await settled(marker.eventId)

    expect(pending).toBeInstanceOf(Date)
    expect(manual.resultStatus).toBe(200)
    // The manual attempt is reported without a plan; the retry finds the event delivered.
    expect(
      reportsFor(event.eventId).map(({ attempt, next }) => [attempt.kind, next?.state]),
    ).toEqual([
      ['first', 'retrying'],
      ['manual', undefined],
    ])
    expect(merchant.received.map(({ id }) => id)).toEqual([
      event.eventId,
      event.eventId,
      marker.eventId,
      marker.eventId,
    ])
  })

  it('leaves the first attempt of an event a failed redelivery went ahead of to count as the first', async () => {
    let answers = 0
    const merchant = await receiver(() => (++answers === 1 ? 500 : 200))
    const waiting = job(merchant.url)
    const { engine: deliveries, clock, reportsFor, settled } = engine()
    // Created a second from now: its first attempt waits for the clock, which stands still.
    await deliveries.enqueue(waiting, new Date(clock.now() + 1_000))

    const manual = await deliveries.redeliver(waiting)
    const afterManual = reportsFor(waiting.eventId)[0]
    clock.advance(1_000)
    await settled(waiting.eventId)

    expect(manual.resultStatus).toBe(500)
    expect(afterManual?.next).toBeUndefined()
    expect(reportsFor(waiting.eventId).map(({ attempt }) => attempt.kind)).toEqual([
      'manual',
      'first',
    ])
    expect(reportsFor(waiting.eventId).at(-1)?.next).toEqual({ state: 'delivered' })
  })

  it('retries no more an event a redelivery delivered while its automatic attempt was failing', async () => {
    const held: ServerResponse[] = []
    const merchant = await receiver((_delivery, index) =>
      index === 0 ? (response) => held.push(response) : 200,
    )
    const event = job(merchant.url)
    const { engine: deliveries, skipped, reportsFor, toNextRetry } = engine()
    await deliveries.enqueue(event)
    await merchant.until((received) => received.length === 1)

    const manual = await deliveries.redeliver(event)
    for (const response of held) response.writeHead(500).end()
    await until(() => reportsFor(event.eventId).length === 2, 15_000, 'the held attempt reported')

    expect(manual.resultStatus).toBe(200)
    expect(reportsFor(event.eventId).map(({ attempt }) => attempt.resultStatus)).toEqual([200, 500])
    // The failed attempt's retry finds the event delivered and sends nothing.
    toNextRetry(event.eventId)
    await until(() => skipped.includes(event.eventId))
    expect(merchant.received.map(({ id }) => id)).toEqual([event.eventId, event.eventId])
  })

  it('drops the waiting first attempt of an event a redelivery delivered', async () => {
    const merchant = await receiver(() => 200)
    const redelivered = job(merchant.url)
    const { engine: deliveries, clock, skipped, reportsFor } = engine()
    await deliveries.enqueue(redelivered, new Date(clock.now() + 1_000))

    await deliveries.redeliver(redelivered)
    clock.advance(1_000)
    await until(() => skipped.includes(redelivered.eventId), 15_000, 'the due attempt dropped')

    expect(reportsFor(redelivered.eventId).map(({ attempt }) => attempt.kind)).toEqual(['manual'])
    expect(merchant.received.map(({ id }) => id)).toEqual([redelivered.eventId])
  })

  it('refuses after close() with an error saying what to do', async () => {
    const { engine: deliveries } = engine()
    await deliveries.close()
    await expect(deliveries.redeliver(job('http://127.0.0.1:1'))).rejects.toThrow(/closed/)
  })
})

describe('close()', () => {
  it('leaves no sockets open to receivers, idle keep-alive ones included', async () => {
    const merchant = await receiver(() => 200)
    const { engine: deliveries, settled } = engine()
    const events = Array.from({ length: 5 }, () => job(merchant.url))
    for (const event of events) await deliveries.enqueue(event)
    for (const event of events) await settled(event.eventId)
    expect(merchant.openConnections()).toBeGreaterThan(0)

    await deliveries.close()

    await until(() => merchant.openConnections() === 0, 5_000, 'sockets closed')
  })

  it('cancels pending retries: no attempt and no report after close()', async () => {
    const merchant = await receiver(() => 500)
    const { engine: deliveries, clock, reports } = engine({ schedule: [0, 50, 50] })
    await deliveries.enqueue(job(merchant.url))
    await until(() => reports.length === 1)
    await until(() => clock.nextWakeUpAt !== undefined, 5_000, 'the retry scheduled')

    await deliveries.close()
    const stopped = merchant.received.length
    await deliveries.enqueue(job(merchant.url))

    // Nothing waits for the time any more: no retry can come, however far it moves.
    expect(clock.nextWakeUpAt).toBeUndefined()
    expect(merchant.received).toHaveLength(stopped)
    expect(reports).toHaveLength(1)
  })

  it('leaves no timer behind: neither the retry timer nor the deadlines of attempts in flight', async () => {
    const deliveryTimers = timers()
    const failing = await receiver(() => 500)
    const hanging = await receiver(() => 'hang')
    // Real timers, the ones this test counts.
    const { engine: deliveries, reportsFor } = engine({
      clock: systemClock,
      schedule: [0, 3_600_000],
    })
    const retried = job(failing.url)
    const stuck = job(hanging.url)
    await deliveries.enqueue(retried)
    await deliveries.enqueue(stuck)
    await until(() => reportsFor(retried.eventId).length === 1)
    await hanging.until((received) => received.length === 1)
    expect(deliveryTimers.live()).toBeGreaterThanOrEqual(2)

    await deliveries.close()

    await until(() => deliveryTimers.live() === 0, 5_000, 'every delivery timer cleared')
  })

  it('resolves again on a second call', async () => {
    const { engine: deliveries } = engine()
    await deliveries.close()
    await expect(deliveries.close()).resolves.toBeUndefined()
  })
})

describe('options', () => {
  it.each([
    [{ timeScale: -1 }, /timeScale must be a finite number >= 0/],
    [{ timeScale: Number.NaN }, /timeScale/],
    [{ concurrency: 0 }, /concurrency must be a whole number >= 1/],
    [{ perOriginConcurrency: 1.5 }, /perOriginConcurrency/],
    [{ perAccountConcurrency: 0 }, /perAccountConcurrency/],
    [{ timeoutMs: 0 }, /timeoutMs must be a finite number > 0/],
    [{ schedule: [] }, /schedule must be a non-empty array/],
    [{ schedule: [0, -5] }, /schedule/],
    [{ signingSecrets: new Map([['acct_1', '']]) }, /signingSecret is empty/],
    [{ signingSecrets: new Map([['acct_1', 'whsec_not base64!']]) }, /signingSecret .*not base64/],
  ] as const)('rejects %o naming the option', (options, message) => {
    expect(() =>
      createDeliveryEngine({
        queue: createMemoryWorkQueue(),
        loadJob: async () => undefined,
        onAttempt: () => {},
        ...options,
      }),
    ).toThrow(message)
  })
})
