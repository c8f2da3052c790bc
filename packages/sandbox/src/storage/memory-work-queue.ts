import { DueHeap } from '../due-heap'
import {
  AddedWorkListeners,
  type ClaimedWork,
  type NewWork,
  type WorkKind,
  type WorkOutcome,
  type WorkPayload,
  type WorkQueue,
} from './work-queue'

interface Item {
  readonly id: string
  /** The id as a number: the order items were added in. */
  readonly sequence: number
  readonly kind: WorkKind
  readonly accountId: string
  payload: WorkPayload
  dueAt: number
  lease: string | undefined
}

/**
 * The work queue of the memory store. Claims never expire: the queue lives and dies with its
 * process, so no other process can take over. Only claimable items sit in the due heaps: a
 * claimed one leaves them until it is rescheduled.
 */
export function createMemoryWorkQueue(): WorkQueue {
  const items = new Map<string, Item>()
  const due: Record<WorkKind, DueHeap<Item>> = { delivery: new DueHeap(), lifecycle: new DueHeap() }
  const added = new AddedWorkListeners()
  // Ids and leases only need to be unique within this process, which the queue lives and dies
  // with: a counter serves, without the cost of random ones on every event.
  let sequence = 0

  function claimed(work: ClaimedWork): Item | undefined {
    const item = items.get(work.id)
    return item !== undefined && item.lease === work.lease ? item : undefined
  }

  function settle(outcome: WorkOutcome): boolean {
    const item = claimed(outcome.work)
    if (item === undefined) return false
    if (outcome.done) {
      items.delete(item.id)
      return true
    }
    item.lease = undefined
    item.dueAt = outcome.dueAt
    item.payload = outcome.payload
    due[item.kind].add(item, outcome.dueAt)
    return true
  }

  return {
    async add(work: readonly NewWork[]) {
      for (const { kind, accountId, payload, dueAt } of work) {
        const id = ++sequence
        const item: Item = {
          id: String(id),
          sequence: id,
          kind,
          accountId,
          payload,
          dueAt,
          lease: undefined,
        }
        items.set(item.id, item)
        due[kind].add(item, dueAt)
      }
      // Memory has no transaction: stored is committed.
      added.announce(work)
    },

    async claim(kind: WorkKind, now: number, limit: number) {
      const taken: ClaimedWork[] = []
      while (taken.length < limit) {
        const item = due[kind].takeDue(now)
        if (item === undefined) break
        item.lease = String(++sequence)
        taken.push({
          id: item.id,
          kind: item.kind,
          accountId: item.accountId,
          payload: item.payload,
          dueAt: item.dueAt,
          lease: item.lease,
        })
      }
      return taken
    },

    complete: (work: ClaimedWork) => Promise.resolve(settle({ work, done: true })),

    reschedule: (work: ClaimedWork, dueAt: number, payload: WorkPayload) =>
      Promise.resolve(settle({ work, done: false, dueAt, payload })),

    finish: async (outcomes: readonly WorkOutcome[]) => outcomes.map(settle),

    async pullForward(kind, { accountId, payload }, now, limit) {
      const fields = Object.entries(payload)
      // Only waiting items sit in the heap: claimed ones left it when they were taken.
      const pulled = due[kind].earliest(
        limit,
        (item) =>
          item.accountId === accountId &&
          item.dueAt > now &&
          fields.every(([field, value]) => item.payload[field] === value),
      )
      for (const item of pulled.sort((a, b) => a.sequence - b.sequence)) {
        item.dueAt = now
        due[kind].remove(item)
        due[kind].add(item, now)
      }
      return pulled.length
    },

    async nextDueAt(kind: WorkKind) {
      return due[kind].nextDueAt
    },

    onAdded: added.subscribe,
  }
}
