import { afterEach, describe, expect, it } from 'vitest'
import { createDeliveryEngine, type DeliveryProgress } from '../src/delivery/index'
import { defaultDeliverySchedule, delayBeforeAttempt } from '../src/delivery/schedule'
import { createMemoryWorkQueue } from '../src/storage/memory-work-queue'
import { eventually, startReceiver } from '../src/testing/index'

const second = 1_000
const minute = 60 * second
const hour = 60 * minute

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('retry schedule', () => {
  it('is 0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect(defaultDeliverySchedule).toEqual([
      0,
      5 * second,
      5 * minute,
      30 * minute,
      2 * hour,
      5 * hour,
      10 * hour,
      10 * hour,
    ])
  })

  it('scales each wait by timeScale and ends after the last entry', () => {
    const scaled = defaultDeliverySchedule.map((_, index) =>
      delayBeforeAttempt(defaultDeliverySchedule, index, 0.001),
    )
    expect(scaled).toEqual([0, 5, 300, 1_800, 7_200, 18_000, 36_000, 36_000])
    expect(delayBeforeAttempt(defaultDeliverySchedule, 8, 0.001)).toBeUndefined()
    expect(delayBeforeAttempt(defaultDeliverySchedule, 3, 1)).toBe(30 * minute)
  })

  it('waits at least the scaled delay between one failed attempt and the next', async () => {
    // About 0.3 s for the whole schedule (from 30 min on, each wait is milliseconds long); only
    // lower bounds are checked, never how late a retry is.
    // Arrivals are whole wall-clock milliseconds, which a clock adjustment can shift by one: a
    // retry sent without its wait (no delay at all) still fails by far more than that.
    const clockToleranceMs = 1
    const timeScale = 0.000003
    const merchant = await startReceiver(() => 503)
    cleanups.push(() => merchant.stop())
    const states: (DeliveryProgress['state'] | undefined)[] = []
    const queue = createMemoryWorkQueue()
    const job = {
      accountId: 'acct_test',
      eventId: 'ev_schedule',
      eventType: 'charge.created',
      chargeId: 'ch_schedule',
      eventsUrl: `${merchant.url}/hooks`,
      body: '{"id":"ev_schedule","type":"charge.created"}',
    }
    const engine = createDeliveryEngine({
      queue,
      timeScale,
      loadJob: async () => job,
      onAttempt: (_job, _attempt, next) => {
        states.push(next?.state)
      },
    })
    cleanups.push(() => engine.close())

    // The queue announces the work it stores: nothing else wakes the engine.
    await queue.add([engine.workFor(job, new Date())])
    await eventually(() => states.at(-1) === 'schedule-ended', {
      timeoutMs: 15_000,
      what: 'schedule used up',
    })

    const arrivals = merchant.received.map(({ receivedAt }) => receivedAt)
    expect(arrivals).toHaveLength(defaultDeliverySchedule.length)
    for (let attempt = 1; attempt < arrivals.length; attempt++) {
      const gap = (arrivals[attempt] as number) - (arrivals[attempt - 1] as number)
      const scaledDelay = (defaultDeliverySchedule[attempt] as number) * timeScale
      expect(gap, `gap before attempt ${attempt + 1}`).toBeGreaterThanOrEqual(
        scaledDelay - clockToleranceMs,
      )
    }
  })
})
