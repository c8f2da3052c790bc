import { describe, expect, it } from 'vitest'
import type { NewWork, WorkQueue } from '../src/storage/work-queue'

export interface WorkQueueSubject {
  queue: WorkQueue
  close(): Promise<void>
}

const base = 1_800_000_000_000
const minute = 60_000
/** A lease no test outlives: claims made with it never expire within the test. */
const hour = 60 * minute

function work(tag: string, dueAt: number, fields: Record<string, string> = {}): NewWork {
  return { kind: 'delivery', accountId: 'acct_contract', payload: { tag, ...fields }, dueAt }
}

/** Work for a receiver, as the delivery engine adds it: the receiver is a payload field. */
const toReceiver = (tag: string, dueAt: number, receiver: string) => work(tag, dueAt, { receiver })

const shop = { accountId: 'acct_contract', payload: { receiver: 'https://shop.example' } }

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

    it('claims work due at the same time in the order it was added, none waiting for another', () =>
      withQueue(async (queue) => {
        await queue.add([work('a1', base), work('a2', base)])
        await queue.add([work('a3', base), work('b1', base)])
        const claimed = await queue.claim('delivery', base, 10, minute)
        expect(tags(claimed)).toEqual(['a1', 'a2', 'a3', 'b1'])
        // A claim in flight holds back nothing: the work added after it is claimable at once.
        await queue.add([work('a4', base)])
        expect(tags(await queue.claim('delivery', base, 10, minute))).toEqual(['a4'])
      }))

    it('finishes a batch of claims in one call: removes, puts back, and refuses lost claims', () =>
      withQueue(async (queue) => {
        if (queue.finish === undefined) throw new Error('this queue cannot finish in batches')
        await queue.add([work('done', base), work('retry', base), work('twice', base)])
        const [done, retry, twice] = await queue.claim('delivery', base, 3, minute)
        if (done === undefined || retry === undefined || twice === undefined) {
          throw new Error('not all claimed')
        }
        expect(await queue.complete(twice)).toBe(true)
        expect(
          await queue.finish([
            { work: done, done: true },
            { work: twice, done: true },
            { work: retry, done: false, dueAt: base + minute, payload: { tag: 'retry 2' } },
          ]),
        ).toEqual([true, false, true])
        expect(await queue.finish([])).toEqual([])
        expect(await queue.nextDueAt('delivery')).toBe(base + minute)
        expect(tags(await queue.claim('delivery', base + minute, 10, minute))).toEqual(['retry 2'])
      }))

    it('pulls forward the earliest waiting work that matches, up to the limit, due at once', () =>
      withQueue(async (queue) => {
        if (queue.pullForward === undefined) throw new Error('this queue cannot pull work forward')
        const now = base + minute
        await queue.add([
          toReceiver('in 30 min', base + 30 * minute, shop.payload.receiver),
          toReceiver('in 10 min', base + 10 * minute, shop.payload.receiver),
          toReceiver('in 20 min', base + 20 * minute, shop.payload.receiver),
          toReceiver('already due', base, shop.payload.receiver),
          toReceiver('claimed', base - minute, shop.payload.receiver),
          toReceiver('other receiver', base + 10 * minute, 'https://other.example'),
          {
            ...toReceiver('other account', base + 10 * minute, shop.payload.receiver),
            accountId: 'acct_other',
          },
          {
            ...toReceiver('other kind', base + 10 * minute, shop.payload.receiver),
            kind: 'lifecycle',
          },
          work('no receiver', base + 10 * minute),
        ])
        const [claimed] = await queue.claim('delivery', base, 1, hour)
        expect(claimed?.payload.tag).toBe('claimed')

        expect(await queue.pullForward('delivery', shop, now, 2)).toBe(2)
        // Due at once, in the order they were added; the rest keep their times.
        expect(tags(await queue.claim('delivery', now, 10, hour))).toEqual([
          'already due',
          'in 10 min',
          'in 20 min',
        ])
        expect(await queue.claim('delivery', now, 10, hour)).toEqual([])
        expect(await queue.pullForward('delivery', shop, now, 10)).toBe(1)
        expect(tags(await queue.claim('delivery', now, 10, hour))).toEqual(['in 30 min'])
        expect(await queue.pullForward('delivery', shop, now, 10)).toBe(0)
        expect(tags(await queue.claim('delivery', base + 10 * minute, 10, hour))).toEqual([
          'other receiver',
          'other account',
          'no receiver',
        ])
        expect(tags(await queue.claim('lifecycle', base + 10 * minute, 10, hour))).toEqual([
          'other kind',
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
