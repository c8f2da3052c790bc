import { describe, expect, it } from 'vitest'
import { createMemoryWorkQueue } from '../src/storage/memory-work-queue'
import type { ClaimedWork, NewWork, WorkQueue } from '../src/storage/work-queue'
import { eventually } from '../src/testing/index'
import { createWorkRunner, type WorkResult, workDone } from '../src/work-runner'

const work = (tag: number, dueAt = Date.now()): NewWork => ({
  kind: 'lifecycle',
  accountId: 'acct_runner',
  payload: { tag, round: 1 },
  dueAt,
})

describe('work runner', () => {
  it('runs each item once with two runners on one queue, a rescheduled one again with its new payload', async () => {
    const queue = createMemoryWorkQueue()
    const runs: { runner: string; tag: unknown; round: unknown }[] = []
    let running = 0
    let mostRunning = 0
    const runner = (name: string) =>
      createWorkRunner({
        queue,
        kind: 'lifecycle',
        leaseMs: 60_000,
        capacity: (busy) => 4 - busy,
        async run({ payload }: ClaimedWork): Promise<WorkResult> {
          runs.push({ runner: name, tag: payload.tag, round: payload.round })
          mostRunning = Math.max(mostRunning, ++running)
          // Yields so the other runner claims meanwhile.
          await new Promise((resolve) => setImmediate(resolve))
          running--
          // Every tenth item asks to run once more, at once.
          if (payload.round === 1 && (payload.tag as number) % 10 === 0) {
            return { done: false, dueAt: Date.now(), payload: { ...payload, round: 2 } }
          }
          return workDone
        },
        onError: (error) => {
          throw error
        },
      })
    const runners = [runner('one'), runner('two')]
    await queue.add(Array.from({ length: 100 }, (_, tag) => work(tag)))
    for (const each of runners) each.wake()

    await eventually(() => runs.length === 110)
    await Promise.all(runners.map((each) => each.close()))

    const firstRounds = runs.filter(({ round }) => round === 1).map(({ tag }) => tag)
    expect([...firstRounds].sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 100 }, (_, tag) => tag),
    )
    expect(runs.filter(({ round }) => round === 2).map(({ tag }) => tag)).toEqual(
      Array.from({ length: 10 }, (_, index) => index * 10),
    )
    expect(new Set(runs.map(({ runner: name }) => name))).toEqual(new Set(['one', 'two']))
    expect(mostRunning).toBeLessThanOrEqual(8)
    expect(await queue.nextDueAt('lifecycle')).toBeUndefined()
  })

  it('stores the outcomes of items that end together in one call; one at a time without finish', async () => {
    /** Runs 20 due items, half of them once more, and counts how the queue was told. */
    async function runTwenty(queue: WorkQueue) {
      let runs = 0
      const runner = createWorkRunner({
        queue,
        kind: 'lifecycle',
        leaseMs: 60_000,
        capacity: (busy) => 50 - busy,
        async run({ payload }): Promise<WorkResult> {
          runs++
          return payload.round === 1 && (payload.tag as number) % 2 === 0
            ? { done: false, dueAt: Date.now(), payload: { ...payload, round: 2 } }
            : workDone
        },
        onError: (error) => {
          throw error
        },
      })
      await queue.add(Array.from({ length: 20 }, (_, tag) => work(tag)))
      await eventually(() => runs === 30)
      // Waits for the items still running, and for their outcomes to be stored.
      await runner.close()
      expect(await queue.nextDueAt('lifecycle')).toBeUndefined()
    }
    const calls = { finish: [] as number[], complete: 0, reschedule: 0 }
    const counted = (queue: WorkQueue): WorkQueue => ({
      ...queue,
      complete: (...args) => {
        calls.complete++
        return queue.complete(...args)
      },
      reschedule: (...args) => {
        calls.reschedule++
        return queue.reschedule(...args)
      },
    })
    const memory = createMemoryWorkQueue()
    await runTwenty({
      ...counted(memory),
      finish: (outcomes) => {
        calls.finish.push(outcomes.length)
        return memory.finish?.(outcomes) ?? Promise.reject(new Error('no finish'))
      },
    })
    expect(calls.finish.reduce((sum, size) => sum + size, 0)).toBe(30)
    expect(Math.max(...calls.finish)).toBeGreaterThan(1)
    expect(calls).toMatchObject({ complete: 0, reschedule: 0 })

    const { finish: _batches, ...withoutFinish } = createMemoryWorkQueue()
    calls.finish = []
    await runTwenty(counted(withoutFinish))
    expect(calls).toEqual({ finish: [], complete: 20, reschedule: 10 })
  })

  it('looks for work again when a finished item frees capacity a look lacked, not after every item', async () => {
    /** Runs 20 items due now, at most `slots` at once, and counts the queue's claims. */
    async function claimsForTwenty(slots: number) {
      const memory = createMemoryWorkQueue()
      let claims = 0
      const queue: WorkQueue = {
        ...memory,
        claim: (...args) => {
          claims++
          return memory.claim(...args)
        },
      }
      let runs = 0
      const runner = createWorkRunner({
        queue,
        kind: 'lifecycle',
        leaseMs: 60_000,
        capacity: (busy) => slots - busy,
        async run() {
          runs++
          await new Promise((resolve) => setImmediate(resolve))
          return workDone
        },
        onError: (error) => {
          throw error
        },
        // Only the queue's announcements and finished items wake the runner during the test.
        pollMs: 60_000,
      })
      await queue.add(Array.from({ length: 20 }, (_, tag) => work(tag)))
      await eventually(() => runs === 20)
      await runner.close()
      expect(await queue.nextDueAt('lifecycle')).toBeUndefined()
      return claims
    }
    // Room for all of them: the claims that found them, none for the items that ended after.
    expect(await claimsForTwenty(50)).toBeLessThanOrEqual(3)
    // Room for two at a time: each finished item makes room for the next, claimed then.
    expect(await claimsForTwenty(2)).toBeGreaterThanOrEqual(10)
  })

  it('runs future work when it becomes due, and close() waits for the item running', async () => {
    const queue = createMemoryWorkQueue()
    const ran: unknown[] = []
    let finish: () => void = () => {}
    const runner = createWorkRunner({
      queue,
      kind: 'lifecycle',
      leaseMs: 60_000,
      capacity: (busy) => 1 - busy,
      async run({ payload }) {
        ran.push(payload.tag)
        if (payload.tag === 'slow') await new Promise<void>((resolve) => (finish = resolve))
        return workDone
      },
      onError: (error) => {
        throw error
      },
    })
    await queue.add([work(2, Date.now() + 30), work(1, Date.now() + 10)])
    runner.wake()
    await eventually(() => ran.length === 2)
    expect(ran).toEqual([1, 2])

    await queue.add([{ ...work(0), payload: { tag: 'slow' } }])
    runner.wake()
    await eventually(() => ran.includes('slow'))
    let closed = false
    const closing = runner.close().then(() => {
      closed = true
    })
    await new Promise((resolve) => setImmediate(resolve))
    expect(closed).toBe(false)
    finish()
    await closing
    expect(await queue.nextDueAt('lifecycle')).toBeUndefined()
  })
})
