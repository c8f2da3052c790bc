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

interface ObjectTable {
  byId: Map<string, ObjectKinds[ObjectKind]>
  /** Ids in insertion order; lists read it backwards for newest first. */
  order: string[]
  /** Ids by parent (`charge`, `instrument`, `payment` field → its id), in insertion order. */
  byParent: Map<string, string[]>
}

// An object's parents never change, so they are indexed once, when it is first stored.
const parentFields = ['charge', 'instrument', 'payment'] as const
const parentKey = (field: string, id: string) => `${field}\u0000${id}`

interface AccountSpace {
  objects: Map<ObjectKind, ObjectTable>
  events: StoredEvent[]
  eventsById: Map<string, StoredEvent>
  eventsByCharge: Map<string, StoredEvent[]>
  eventsByObject: Map<string, StoredEvent[]>
}

/**
 * The in-memory store: per-account maps plus an ordered event log with indexes by charge and by
 * object, so the common searches (a charge's events, an object's events) never scan the log.
 */
export function createMemoryStore(): SandboxStore {
  const accounts = new Map<string, AccountSpace>()
  const challenges = new Map<string, ChallengeRecord>()
  const work = createMemoryWorkQueue()

  function space(accountId: string): AccountSpace {
    let found = accounts.get(accountId)
    if (found === undefined) {
      found = {
        objects: new Map(),
        events: [],
        eventsById: new Map(),
        eventsByCharge: new Map(),
        eventsByObject: new Map(),
      }
      accounts.set(accountId, found)
    }
    return found
  }

  function table(accountId: string, kind: ObjectKind): ObjectTable {
    const objects = space(accountId).objects
    let found = objects.get(kind)
    if (found === undefined) {
      found = { byId: new Map(), order: [], byParent: new Map() }
      objects.set(kind, found)
    }
    return found
  }

  return {
    async getObject<K extends ObjectKind>(accountId: string, kind: K, id: string) {
      return table(accountId, kind).byId.get(id) as ObjectKinds[K] | undefined
    },

    async putObject<K extends ObjectKind>(accountId: string, kind: K, object: ObjectKinds[K]) {
      const { byId, order, byParent } = table(accountId, kind)
      if (!byId.has(object.id)) {
        order.push(object.id)
        const fields = object as Record<string, unknown>
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
        parent === undefined ? order : (byParent.get(parentKey(parent, filter[parent] ?? '')) ?? [])
      return collectPage(
        ids,
        (id) => byId.get(id) as ObjectKinds[K],
        (object) => matchesObjectFilter(object, filter),
        page,
      )
    },

    async addEvent(accountId: string, event: StoredEvent, followUps: readonly NewWork[] = []) {
      const account = space(accountId)
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
        (event) => event,
        (event) => matchesEventFilter(event, filter),
        page,
      )
    },

    async putChallenge(challenge: ChallengeRecord) {
      challenges.set(challenge.instrumentId, challenge)
    },

    async getChallenge(instrumentId: string) {
      return challenges.get(instrumentId)
    },

    async deleteChallenge(instrumentId: string) {
      challenges.delete(instrumentId)
    },

    work,
    idempotency: createMemoryIdempotencyRecords(),
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
  return account.events
}

/** Walks `entries` newest first, counting every match and keeping those on the page. */
function collectPage<Entry, Item>(
  entries: readonly Entry[],
  read: (entry: Entry) => Item,
  matches: (item: Item) => boolean,
  { offset, limit }: PageRequest,
): PageResult<Item> {
  const items: Item[] = []
  let total = 0
  for (let index = entries.length - 1; index >= 0; index--) {
    const item = read(entries[index] as Entry)
    if (!matches(item)) continue
    if (total >= offset && items.length < limit) items.push(item)
    total++
  }
  return { items, total }
}

function matchesObjectFilter(object: object, filter: ObjectFilter): boolean {
  const fields = object as Record<string, unknown>
  if (filter.charge !== undefined && parentIdOf(fields.charge) !== filter.charge) return false
  if (filter.instrument !== undefined && parentIdOf(fields.instrument) !== filter.instrument) {
    return false
  }
  if (filter.payment !== undefined && parentIdOf(fields.payment) !== filter.payment) return false
  if (filter.status !== undefined && fields.status !== filter.status) return false
  return !(filter.unsettled === true && fields.settled_at !== null)
}
