import { describe, expect, it } from 'vitest'
import type { NewWork, WorkQueue } from '../src/storage/work-queue'

export interface WorkQueueSubject {
  queue: WorkQueue
  close(): Promise<void>
}

const base = 1_800_000_000_000
const minute = 60_000

function work(tag: string, dueAt: number, orderKey?: string): NewWork {
  return {
    kind: 'delivery',
    accountId: 'acct_contract',
    payload: { tag },
    dueAt,
    ...(orderKey === undefined ? {} : { orderKey }),
  }
}

const tags = (claimed: readonly { payload: { readonly [field: string]: unknown } }[]) =>
  claimed.map(({ payload }) => payload.tag)

/**
 * What every WorkQueue implementation promises, run against each of them. `open` gives a fresh,
 * empty queue; `expiresClaims` is for stores shared between processes, where a claim not
 * finished within its lease is claimable again.
 */
export function describeWorkQueueContract(
  name: string,
  open: () => Promise<WorkQueueSubject>,
  { expiresClaims }: { expiresClaims: boolean },
) {
  describe(`WorkQueue contract: ${name}`, () => {
    async function withQueue(test: (queue: WorkQueue) => Promise<void>) {
      const subject = await open()
      try {
        await test(subject.queue)
      } finally {
        await subject.close()
      }
    }

    it('claims only due work of the asked kind, earliest first, up to the limit, once', () =>
      withQueue(async (queue) => {
        await queue.add([
          work('late', base + 3 * minute),
          work('second', base + minute),
          work('first', base),
          work('future', base + 60 * minute),
          { ...work('other kind', base), kind: 'lifecycle' },
        ])
        const now = base + 5 * minute
        expect(tags(await queue.claim('delivery', now, 2, minute))).toEqual(['first', 'second'])
        expect(tags(await queue.claim('delivery', now, 10, minute))).toEqual(['late'])
        expect(await queue.claim('delivery', now, 10, minute)).toEqual([])
        expect(tags(await queue.claim('lifecycle', now, 10, minute))).toEqual(['other kind'])
        // Where claims expire, the claimed items come due again when their leases end.
        expect(await queue.nextDueAt('delivery')).toBe(
          expiresClaims ? now + minute : base + 60 * minute,
        )
      }))

    it('removes completed work, and completes a claim only once', () =>
      withQueue(async (queue) => {
        await queue.add([work('once', base)])
        const [claimed] = await queue.claim('delivery', base, 1, minute)
        if (claimed === undefined) throw new Error('nothing claimed')
        expect(claimed).toMatchObject({ kind: 'delivery', accountId: 'acct_contract', dueAt: base })
        expect(await queue.complete(claimed)).toBe(true)
        expect(await queue.complete(claimed)).toBe(false)
        expect(await queue.reschedule(claimed, base, { tag: 'again' })).toBe(false)
        expect(await queue.nextDueAt('delivery')).toBeUndefined()
        expect(await queue.claim('delivery', base + 60 * minute, 10, minute)).toEqual([])
      }))

    it('reschedules claimed work with its new payload, due at its new time', () =>
      withQueue(async (queue) => {
        await queue.add([work('attempt 1', base)])
        const [claimed] = await queue.claim('delivery', base, 1, minute)
        if (claimed === undefined) throw new Error('nothing claimed')
        expect(await queue.reschedule(claimed, base + 5 * minute, { tag: 'attempt 2' })).toBe(true)
        expect(await queue.nextDueAt('delivery')).toBe(base + 5 * minute)
        expect(await queue.claim('delivery', base + 5 * minute - 1, 1, minute)).toEqual([])
        const [retry] = await queue.claim('delivery', base + 5 * minute, 1, minute)
        expect(retry?.payload).toEqual({ tag: 'attempt 2' })
        expect(retry?.lease).not.toBe(claimed.lease)
        // The first claim is over: it can neither finish nor move the retry.
        expect(await queue.complete(claimed)).toBe(false)
      }))

    it('takes due times with a fraction of a ms (scaled delays), never claiming early', () =>
      withQueue(async (queue) => {
        await queue.add([work('scaled', base + 0.4)])
        expect(await queue.claim('delivery', base, 1, minute)).toEqual([])
        const [claimed] = await queue.claim('delivery', base + 1, 1, minute)
        if (claimed === undefined) throw new Error('nothing claimed')
        expect(await queue.reschedule(claimed, base + 10.6, { tag: 'retry' })).toBe(true)
        expect(await queue.claim('delivery', base + 10, 1, minute)).toEqual([])
        const next = await queue.nextDueAt('delivery')
        expect(next).toBeGreaterThanOrEqual(base + 10.6)
        expect(next).toBeLessThanOrEqual(base + 11)
        expect(tags(await queue.claim('delivery', base + 11, 1, minute))).toEqual(['retry'])
      }))

    it('holds work of a key behind earlier work of that key until it completes or is rescheduled', () =>
      withQueue(async (queue) => {
        await queue.add([work('a1', base, 'charge-a'), work('a2', base, 'charge-a')])
        await queue.add([work('a3', base, 'charge-a'), work('b1', base, 'charge-b')])
        const first = await queue.claim('delivery', base, 10, minute)
        expect(tags(first)).toEqual(['a1', 'b1'])
        // a2 and a3 wait behind a1: only the claims' expiry (where claims expire) is ahead.
        expect(await queue.nextDueAt('delivery')).toBe(expiresClaims ? base + minute : undefined)

        // A failing a1 goes back to wait for its retry: a2 may go now, a3 still waits for a2.
        const a1 = first[0]
        if (a1 === undefined) throw new Error('a1 not claimed')
        await queue.reschedule(a1, base + 60 * minute, { tag: 'a1 retry' })
        const second = await queue.claim('delivery', base, 10, minute)
        expect(tags(second)).toEqual(['a2'])
        await queue.complete(second[0] as (typeof second)[0])
        const third = await queue.claim('delivery', base, 10, minute)
        expect(tags(third)).toEqual(['a3'])
        for (const done of [...third, first[1]]) {
          expect(await queue.complete(done as (typeof third)[0])).toBe(true)
        }
        expect(tags(await queue.claim('delivery', base + 60 * minute, 10, minute))).toEqual([
          'a1 retry',
        ])
      }))

    // Only registered where it applies, so the memory store's run reports no skipped test.
    if (expiresClaims) {
      it('lets another claim take work whose claim outlived its lease, and the old claim loses it', () =>
        withQueue(async (queue) => {
          await queue.add([work('orphan', base)])
          const [dead] = await queue.claim('delivery', base, 1, minute)
          if (dead === undefined) throw new Error('nothing claimed')
          expect(await queue.claim('delivery', base + minute - 1, 1, minute)).toEqual([])
          expect(await queue.nextDueAt('delivery')).toBe(base + minute)
          const [taken] = await queue.claim('delivery', base + minute, 1, minute)
          expect(taken?.payload).toEqual({ tag: 'orphan' })
          expect(await queue.complete(dead)).toBe(false)
          expect(await queue.complete(taken as NonNullable<typeof taken>)).toBe(true)
        }))
    }
  })
}
