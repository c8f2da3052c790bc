import { DueHeap } from '../due-heap'
import {
  AddedWorkListeners,
  type ClaimedWork,
  type NewWork,
  type WorkKind,
  type WorkPayload,
  type WorkQueue,
} from './work-queue'

interface Item {
  readonly id: string
  readonly kind: WorkKind
  readonly accountId: string
  payload: WorkPayload
  dueAt: number
  readonly orderKey: string | undefined
  /** Still holding back the later work of its key. */
  inOrder: boolean
  lease: string | undefined
}

/**
 * The work queue of the memory store. Claims never expire: the queue lives and dies with its
 * process, so no other process can take over. Only claimable items sit in the due heaps; an item
 * behind earlier work of its key joins them when that work is done.
 */
export function createMemoryWorkQueue(): WorkQueue {
  const items = new Map<string, Item>()
  const due: Record<WorkKind, DueHeap<Item>> = { delivery: new DueHeap(), lifecycle: new DueHeap() }
  /** Per key, the items still in order, oldest first: only the first one is claimable. */
  const keyed = new Map<string, Item[]>()
  const added = new AddedWorkListeners()
  // Ids and leases only need to be unique within this process, which the queue lives and dies
  // with: a counter serves, without the cost of random ones on every event.
  let sequence = 0

  function claimed(work: ClaimedWork): Item | undefined {
    const item = items.get(work.id)
    return item !== undefined && item.lease === work.lease ? item : undefined
  }

  /** The item stops holding back its key; the next one in order becomes claimable. */
  function leaveOrder(item: Item) {
    if (!item.inOrder || item.orderKey === undefined) return
    item.inOrder = false
    const queue = keyed.get(item.orderKey) ?? []
    queue.splice(queue.indexOf(item), 1)
    const next = queue[0]
    if (next === undefined) keyed.delete(item.orderKey)
    else if (next.lease === undefined && !due[next.kind].has(next))
      due[next.kind].add(next, next.dueAt)
  }

  return {
    async add(work: readonly NewWork[]) {
      for (const { kind, accountId, payload, dueAt, orderKey } of work) {
        const item: Item = {
          id: String(++sequence),
          kind,
          accountId,
          payload,
          dueAt,
          orderKey,
          inOrder: orderKey !== undefined,
          lease: undefined,
        }
        items.set(item.id, item)
        if (orderKey === undefined) {
          due[kind].add(item, dueAt)
          continue
        }
        const queue = keyed.get(orderKey)
        if (queue === undefined) {
          keyed.set(orderKey, [item])
          due[kind].add(item, dueAt)
        } else {
          queue.push(item)
        }
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

    async complete(work: ClaimedWork) {
      const item = claimed(work)
      if (item === undefined) return false
      items.delete(item.id)
      leaveOrder(item)
      return true
    },

    async reschedule(work: ClaimedWork, dueAt: number, payload: WorkPayload) {
      const item = claimed(work)
      if (item === undefined) return false
      item.lease = undefined
      item.dueAt = dueAt
      item.payload = payload
      leaveOrder(item)
      due[item.kind].add(item, dueAt)
      return true
    },

    async nextDueAt(kind: WorkKind) {
      return due[kind].nextDueAt
    },

    onAdded: added.subscribe,
  }
}
