import { SandboxError } from '../errors'
import { matchesEventFilter } from './event-matcher'
import { createMemoryIdempotencyRecords } from './memory-idempotency'
import { createMemoryWorkQueue } from './memory-work-queue'
import {
  type ChallengeRecord,
  type EventFilter,
  type EventUpdate,
  type ObjectFilter,
  type ObjectKind,
  type ObjectKinds,
  type PageRequest,
  type PageResult,
  parentIdOf,
  type StoredEvent,
} from './records'
import type { SandboxStore } from './sandbox-store'
import type { NewWork } from './work-queue'

export interface MemoryStoreOptions {
  /**
   * How many charges the store keeps, across all accounts. Past it, the oldest charge is dropped
   * with everything of it: its instruments, payments, refunds, reversals, disputes, events and
   * pending 3-D Secure challenge (reading them again is a 404, and lists and totals no longer
   * count them). Settlements are kept by their own count, the newest `retainCharges` of them.
   * @default 5_000
   */
  retainCharges?: number | undefined
}

// A full flow's charge, with its objects, events, deliveries and replays, costs some 30 KB of
// RSS: 5,000 of them keep a sandbox beside a test suite well under 512 MB (bench/sandbox-memory).
const defaultRetainCharges = 5_000

/** `retainCharges` as given, or its default; a SandboxError says what is expected. */
export function checkRetainCharges(value: unknown): number {
  if (value === undefined) return defaultRetainCharges
  if (!(typeof value === 'number' && Number.isSafeInteger(value) && value >= 1)) {
    throw new SandboxError(
      `retainCharges must be a whole number of charges >= 1, such as ${defaultRetainCharges}; got ${String(value)}`,
    )
  }
  return value
}

interface ObjectTable {
  byId: Map<string, ObjectKinds[ObjectKind]>
  /** Ids in insertion order; lists read it backwards for newest first. */
  order: LazyList<string>
  /** Ids by parent (`charge`, `instrument`, `payment` field → its id), in insertion order. */
  byParent: Map<string, string[]>
}

// An object's parents never change, so they are indexed once, when it is first stored.
const parentFields = ['charge', 'instrument', 'payment'] as const
const parentKey = (field: string, id: string) => `${field}\u0000${id}`

/** Everything stored under one charge (or one settlement), so it can be dropped as a unit. */
interface Footprint {
  accountId: string
  /** The charge's id (a settlement's for a settlement). */
  id: string
  objects: { kind: ObjectKind; id: string }[]
}

interface AccountSpace {
  objects: Map<ObjectKind, ObjectTable>
  events: LazyList<StoredEvent>
  eventsById: Map<string, StoredEvent>
  eventsByCharge: Map<string, StoredEvent[]>
  eventsByObject: Map<string, StoredEvent[]>
  /** The footprint of the charge each kept object belongs to, by object id. */
  footprintOf: Map<string, Footprint>
}

/**
 * The in-memory store: per-account maps plus an ordered event log with indexes by charge and by
 * object, so the common searches (a charge's events, an object's events) never scan the log.
 *
 * Memory stays bounded: the store keeps the newest `retainCharges` charges (see
 * {@link MemoryStoreOptions}). Dropping one costs time in proportion to what the charge holds,
 * never a scan of the store; the ordered lists forget dropped entries lazily, as they are read.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): SandboxStore {
  const retainCharges = checkRetainCharges(options.retainCharges)
  const accounts = new Map<string, AccountSpace>()
  const challenges = new Map<string, ChallengeRecord>()
  // Maps iterate in insertion order: the first entry is the oldest, dropped first.
  const charges = new Map<string, Footprint>()
  const settlements = new Map<string, Footprint>()
  const work = createMemoryWorkQueue()

  function space(accountId: string): AccountSpace {
    let found = accounts.get(accountId)
    if (found === undefined) {
      const eventsById = new Map<string, StoredEvent>()
      found = {
        objects: new Map(),
        events: new LazyList((event) => eventsById.has(event.id)),
        eventsById,
        eventsByCharge: new Map(),
        eventsByObject: new Map(),
        footprintOf: new Map(),
      }
      accounts.set(accountId, found)
    }
    return found
  }

  function table(accountId: string, kind: ObjectKind): ObjectTable {
    const objects = space(accountId).objects
    let found = objects.get(kind)
    if (found === undefined) {
      const byId = new Map<string, ObjectKinds[ObjectKind]>()
      found = { byId, order: new LazyList((id) => byId.has(id)), byParent: new Map() }
      objects.set(kind, found)
    }
    return found
  }

  /**
   * The footprint a new object joins: a new one for a charge or a settlement (dropping the
   * oldest past the bound), its charge's otherwise; undefined when its charge is no longer kept,
   * for a late write (a pending processor answer) must not bring back part of a dropped charge.
   */
  function footprintFor(
    accountId: string,
    kind: ObjectKind,
    object: object,
  ): Footprint | undefined {
    if (kind === 'charge' || kind === 'settlement') {
      const { id } = object as { id: string }
      const footprint: Footprint = { accountId, id, objects: [] }
      const queue = kind === 'charge' ? charges : settlements
      queue.set(`${accountId}\u0000${id}`, footprint)
      for (const [key, oldest] of queue) {
        if (queue.size <= retainCharges) break
        queue.delete(key)
        drop(oldest)
      }
      return footprint
    }
    const chargeId = parentIdOf((object as { charge?: unknown }).charge)
    return chargeId === undefined ? undefined : space(accountId).footprintOf.get(chargeId)
  }

  function drop(footprint: Footprint) {
    const account = space(footprint.accountId)
    for (const { kind, id } of footprint.objects) {
      const kept = table(footprint.accountId, kind)
      kept.byId.delete(id)
      kept.order.forget(1)
      account.footprintOf.delete(id)
      // The dropped object's children are all of this charge: their index entries go whole.
      if (kind === 'charge' || kind === 'instrument' || kind === 'payment') {
        for (const other of account.objects.values()) other.byParent.delete(parentKey(kind, id))
      }
      if (kind === 'instrument') challenges.delete(id)
    }
    const events = account.eventsByCharge.get(footprint.id) ?? []
    for (const event of events) {
      account.eventsById.delete(event.id)
      account.eventsByObject.delete(event.object_id)
    }
    account.eventsByCharge.delete(footprint.id)
    account.events.forget(events.length)
  }

  return {
    async getObject<K extends ObjectKind>(accountId: string, kind: K, id: string) {
      return table(accountId, kind).byId.get(id) as ObjectKinds[K] | undefined
    },

    async putObject<K extends ObjectKind>(accountId: string, kind: K, object: ObjectKinds[K]) {
      const { byId, order, byParent } = table(accountId, kind)
      if (!byId.has(object.id)) {
        const footprint = footprintFor(accountId, kind, object)
        if (footprint === undefined) return
        footprint.objects.push({ kind, id: object.id })
        space(accountId).footprintOf.set(object.id, footprint)
        order.push(object.id)
        const fields = object as unknown as Record<string, unknown>
        for (const field of parentFields) {
          const parent = parentIdOf(fields[field])
          if (parent !== undefined) appendTo(byParent, parentKey(field, parent), object.id)
        }
      }
      byId.set(object.id, object)
    },

    async listObjects<K extends ObjectKind>(
      accountId: string,
      kind: K,
      filter: ObjectFilter,
      page: PageRequest,
    ) {
      const { byId, order, byParent } = table(accountId, kind)
      const parent = parentFields.find((field) => filter[field] !== undefined)
      const ids =
        parent === undefined
          ? order.entries
          : (byParent.get(parentKey(parent, filter[parent] ?? '')) ?? [])
      return collectPage(
        ids,
        (id) => byId.get(id) as ObjectKinds[K] | undefined,
        (object) => matchesObjectFilter(object, filter),
        page,
      )
    },

    async addEvent(accountId: string, event: StoredEvent, followUps: readonly NewWork[] = []) {
      const account = space(accountId)
      // An event of a dropped charge (recorded by late work) would never be dropped itself.
      if (!account.footprintOf.has(event.charge.id)) return
      account.events.push(event)
      account.eventsById.set(event.id, event)
      appendTo(account.eventsByCharge, event.charge.id, event)
      appendTo(account.eventsByObject, event.object_id, event)
      await work.add(followUps)
    },

    async getEvent(accountId: string, id: string) {
      return space(accountId).eventsById.get(id)
    },

    async updateEvent(accountId: string, id: string, update: EventUpdate) {
      const event = space(accountId).eventsById.get(id)
      if (event !== undefined) Object.assign(event, update)
      return event
    },

    async listEvents(accountId: string, filter: EventFilter, page: PageRequest) {
      const account = space(accountId)
      const candidates = narrowestIndex(account, filter)
      return collectPage(
        candidates,
        (event) => (account.eventsById.has(event.id) ? event : undefined),
        (event) => matchesEventFilter(event, filter),
        page,
      )
    },

    async putChallenge(challenge: ChallengeRecord) {
      // A challenge of a dropped instrument would never be dropped itself.
      if (!space(challenge.accountId).footprintOf.has(challenge.instrumentId)) return
      challenges.set(challenge.instrumentId, challenge)
    },

    async getChallenge(instrumentId: string) {
      return challenges.get(instrumentId)
    },

    async deleteChallenge(instrumentId: string) {
      challenges.delete(instrumentId)
    },

    work,
    // As many keys per account as charges are kept: a replay can only find what is still stored.
    idempotency: createMemoryIdempotencyRecords({ maxKeysPerAccount: retainCharges }),
  }
}

/**
 * An insertion-ordered list that forgets lazily: a forgotten entry stays in place (readers skip
 * what `isKept` refuses) until the forgotten ones are a fifth of the list, and then one pass
 * removes them all. So forgetting costs O(1) amortized, lists still read the array newest first,
 * and what a forgotten entry holds (a whole event) outlives it by a fraction of the bound, not by
 * as much again.
 */
class LazyList<T> {
  entries: T[] = []
  #forgotten = 0

  constructor(private readonly isKept: (entry: T) => boolean) {}

  push(entry: T): void {
    this.entries.push(entry)
  }

  /** Tells the list that `count` of its entries are no longer kept. */
  forget(count: number): void {
    this.#forgotten += count
    if (this.#forgotten * 5 < this.entries.length) return
    this.entries = this.entries.filter(this.isKept)
    this.#forgotten = 0
  }
}

function appendTo<T>(index: Map<string, T[]>, key: string, entry: T) {
  const list = index.get(key)
  if (list === undefined) index.set(key, [entry])
  else list.push(entry)
}

const none: readonly StoredEvent[] = []

function narrowestIndex(account: AccountSpace, filter: EventFilter): readonly StoredEvent[] {
  if (filter.objectId !== undefined) return account.eventsByObject.get(filter.objectId) ?? none
  if (filter.charge !== undefined) return account.eventsByCharge.get(filter.charge) ?? none
  return account.events.entries
}

/**
 * Walks `entries` newest first, counting every match and keeping those on the page; `read`
 * answers undefined for an entry that is no longer kept.
 */
function collectPage<Entry, Item>(
  entries: readonly Entry[],
  read: (entry: Entry) => Item | undefined,
  matches: (item: Item) => boolean,
  { offset, limit }: PageRequest,
): PageResult<Item> {
  const items: Item[] = []
  let total = 0
  for (let index = entries.length - 1; index >= 0; index--) {
    const item = read(entries[index] as Entry)
    if (item === undefined || !matches(item)) continue
    if (total >= offset && items.length < limit) items.push(item)
    total++
  }
  return { items, total }
}

function hasMetadata(metadata: unknown, wanted: Readonly<Record<string, string>>): boolean {
  // Metadata kept as a string has no keys to match (its own keys would be character positions).
  if (typeof metadata !== 'object') return false
  const values = (metadata ?? {}) as Record<string, unknown>
  return Object.entries(wanted).every(([key, text]) => {
    const value = Object.hasOwn(values, key) ? values[key] : undefined
    return value !== undefined && value !== null && String(value) === text
  })
}

function matchesObjectFilter(object: object, filter: ObjectFilter): boolean {
  const fields = object as unknown as Record<string, unknown>
  if (filter.charge !== undefined && parentIdOf(fields.charge) !== filter.charge) return false
  if (filter.instrument !== undefined && parentIdOf(fields.instrument) !== filter.instrument) {
    return false
  }
  if (filter.payment !== undefined && parentIdOf(fields.payment) !== filter.payment) return false
  if (filter.status !== undefined && fields.status !== filter.status) return false
  if (filter.metadata !== undefined && !hasMetadata(fields.metadata, filter.metadata)) return false
  return !(filter.unsettled === true && fields.settled_at !== null)
}
