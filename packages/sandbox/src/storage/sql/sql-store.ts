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
} from '../records'
import type { SandboxStore } from '../sandbox-store'
import { AddedWorkListeners, type NewWork } from '../work-queue'
import { type AtomicWrites, atomicWrites } from './atomic-writes'
import type { SqlDatabase, SqlParam } from './database'
import { createSqlIdempotencyRecords } from './sql-idempotency'
import { createSqlWorkQueue, insertWork } from './sql-work-queue'

/** The fields of an event that change after it is recorded, each kept in its own column. */
const eventUpdateColumns = [
  'result_status',
  'retries_log',
  'dismissed_at',
  'delivery_status',
  'next_attempt_at',
] as const satisfies readonly (keyof EventUpdate)[]

type EventRow = Pick<StoredEvent, (typeof eventUpdateColumns)[number]> & { body: StoredEvent }

const eventColumns = `body, ${eventUpdateColumns.join(', ')}`

/** The stored event: its fixed part as recorded, with the fields that changed since. */
function eventOf({ body, ...changed }: EventRow): StoredEvent {
  // Assigning keys the body already has keeps their place, so the event renders as recorded.
  return { ...body, ...changed }
}

/** Conditions ANDed together, with their parameters numbered as they are added. */
class Where {
  readonly conditions: string[] = []
  readonly params: SqlParam[] = []

  /** Adds `condition`, in which `?` stands for `value`. */
  add(condition: string, value: SqlParam): void {
    this.params.push(value)
    this.conditions.push(condition.replace('?', `$${this.params.length}`))
  }

  get sql(): string {
    return this.conditions.join(' AND ')
  }
}

/**
 * The store in a SQL database (embedded PGlite or PostgreSQL): nothing is kept in memory, so
 * several sandbox processes sharing one PostgreSQL database see the same objects and events,
 * and a restart finds everything that was acknowledged. Every call is one statement or one
 * transaction, so a write is either fully stored or not at all.
 */
export function createSqlStore(
  database: SqlDatabase,
  writes: AtomicWrites = atomicWrites(database),
): SandboxStore {
  const { reads: db, writes: writer, atomically, afterCommit } = writes
  const added = new AddedWorkListeners()
  /** One page of `table`, newest first, and the number of matching rows, in one round trip. */
  async function page<Row>(
    table: 'sandbox_objects' | 'sandbox_events',
    columns: string,
    where: Where,
    { offset, limit }: PageRequest,
  ): Promise<{ rows: Row[]; total: number }> {
    const { params } = where
    const [result] = await db.query<{ rows: (Row & { seq: number })[] | null; total: string }>(
      `SELECT
         (SELECT count(*) FROM ${table} WHERE ${where.sql}) AS total,
         (SELECT json_agg(page ORDER BY page.seq DESC) FROM (
            SELECT seq, ${columns} FROM ${table} WHERE ${where.sql}
            ORDER BY seq DESC OFFSET $${params.length + 1} LIMIT $${params.length + 2}
          ) page) AS rows`,
      // An infinite limit (every match) is LIMIT NULL: no limit.
      [...params, offset, Number.isFinite(limit) ? limit : null],
    )
    // `seq` only orders the page: it is no field of what is stored.
    const rows = (result?.rows ?? []).map(({ seq: _seq, ...row }) => row as Row)
    return { rows, total: Number(result?.total ?? 0) }
  }

  async function getEvent(accountId: string, id: string): Promise<StoredEvent | undefined> {
    const [row] = await db.query<EventRow>(
      `SELECT ${eventColumns} FROM sandbox_events WHERE account_id = $1 AND id = $2`,
      [accountId, id],
    )
    return row === undefined ? undefined : eventOf(row)
  }

  return {
    async getObject<K extends ObjectKind>(accountId: string, kind: K, id: string) {
      const [row] = await db.query<{ body: ObjectKinds[K] }>(
        'SELECT body FROM sandbox_objects WHERE account_id = $1 AND kind = $2 AND id = $3',
        [accountId, kind, id],
      )
      return row?.body
    },

    async putObject<K extends ObjectKind>(accountId: string, kind: K, object: ObjectKinds[K]) {
      const fields = object as unknown as Record<string, unknown>
      // On conflict `seq` is left alone: a replaced object keeps its place in lists.
      await writer.query(
        `INSERT INTO sandbox_objects
           (account_id, kind, id, charge_id, instrument_id, payment_id, status, unsettled, body)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::json)
         ON CONFLICT (account_id, kind, id) DO UPDATE SET
           charge_id = excluded.charge_id, instrument_id = excluded.instrument_id,
           payment_id = excluded.payment_id, status = excluded.status,
           unsettled = excluded.unsettled, body = excluded.body`,
        [
          accountId,
          kind,
          object.id,
          parentIdOf(fields.charge) ?? null,
          parentIdOf(fields.instrument) ?? null,
          parentIdOf(fields.payment) ?? null,
          typeof fields.status === 'string' ? fields.status : null,
          // Only kinds that have a settlement date can be unsettled.
          fields.settled_at === null,
          JSON.stringify(object),
        ],
      )
    },

    async listObjects<K extends ObjectKind>(
      accountId: string,
      kind: K,
      filter: ObjectFilter,
      request: PageRequest,
    ): Promise<PageResult<ObjectKinds[K]>> {
      const where = new Where()
      where.add('account_id = ?', accountId)
      where.add('kind = ?', kind)
      if (filter.charge !== undefined) where.add('charge_id = ?', filter.charge)
      if (filter.instrument !== undefined) where.add('instrument_id = ?', filter.instrument)
      if (filter.payment !== undefined) where.add('payment_id = ?', filter.payment)
      if (filter.status !== undefined) where.add('status = ?', filter.status)
      if (filter.unsettled === true) where.add('unsettled = ?', true)
      if (filter.metadata !== undefined) {
        // Values as text on both sides, as the event search compares them.
        // Metadata kept as a string has no keys to match, and json_each_text refuses it: read as none.
        where.add(
          `(SELECT coalesce(jsonb_object_agg(key, value), '{}') FROM json_each_text(
              CASE WHEN json_typeof(body -> 'metadata') = 'object' THEN body -> 'metadata' END)
            WHERE value IS NOT NULL) @> ?::jsonb`,
          JSON.stringify(filter.metadata),
        )
      }
      const { rows, total } = await page<{ body: ObjectKinds[K] }>(
        'sandbox_objects',
        'body',
        where,
        request,
      )
      return { items: rows.map((row) => row.body), total }
    },

    async addEvent(accountId: string, event: StoredEvent, work: readonly NewWork[] = []) {
      await writer.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO sandbox_events (account_id, id, type, charge_id, object_id, created_at,
             metadata, result_status, retries_log, dismissed_at, delivery_status, next_attempt_at, body)
           VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9::json, $10, $11, $12, $13::json)`,
          [
            accountId,
            event.id,
            event.type,
            event.charge.id,
            event.object_id,
            event.created_at,
            JSON.stringify(searchableMetadata(event.charge.metadata)),
            event.result_status,
            JSON.stringify(event.retries_log),
            event.dismissed_at,
            event.delivery_status,
            event.next_attempt_at,
            JSON.stringify(event),
          ],
        )
        await insertWork(tx, work)
      })
      afterCommit(() => added.announce(work))
    },

    getEvent,

    async updateEvent(accountId: string, id: string, update: EventUpdate) {
      const where = new Where()
      where.add('account_id = ?', accountId)
      where.add('id = ?', id)
      const assignments: string[] = []
      for (const column of eventUpdateColumns) {
        const value = update[column]
        if (value === undefined) continue
        where.params.push(column === 'retries_log' ? JSON.stringify(value) : (value as SqlParam))
        assignments.push(
          `${column} = $${where.params.length}${column === 'retries_log' ? '::json' : ''}`,
        )
      }
      if (assignments.length === 0) return getEvent(accountId, id)
      const [row] = await writer.query<EventRow>(
        `UPDATE sandbox_events SET ${assignments.join(', ')} WHERE ${where.sql}
         RETURNING ${eventColumns}`,
        where.params,
      )
      return row === undefined ? undefined : eventOf(row)
    },

    async listEvents(
      accountId: string,
      filter: EventFilter,
      request: PageRequest,
    ): Promise<PageResult<StoredEvent>> {
      const where = new Where()
      where.add('account_id = ?', accountId)
      if (filter.types !== undefined) {
        where.add(
          'type IN (SELECT json_array_elements_text(?::json))',
          JSON.stringify([...filter.types]),
        )
      }
      if (filter.charge !== undefined) where.add('charge_id = ?', filter.charge)
      if (filter.objectId !== undefined) where.add('object_id = ?', filter.objectId)
      if (filter.metadata !== undefined) {
        where.add('metadata @> ?::jsonb', JSON.stringify(filter.metadata))
      }
      if (filter.createdGte !== undefined) where.add('created_at >= ?', filter.createdGte)
      if (filter.createdLte !== undefined) where.add('created_at <= ?', filter.createdLte)
      if (filter.dismissed !== undefined) {
        where.add('(dismissed_at IS NOT NULL) = ?', filter.dismissed)
      }
      if (filter.resultStatus !== undefined) where.add('result_status = ?', filter.resultStatus)
      if (filter.deliveryStatus !== undefined) {
        where.add('delivery_status = ?', filter.deliveryStatus)
      }
      const { rows, total } = await page<EventRow>('sandbox_events', eventColumns, where, request)
      return { items: rows.map(eventOf), total }
    },

    async putChallenge({ accountId, instrumentId, token, action }: ChallengeRecord) {
      await writer.query(
        `INSERT INTO sandbox_challenges (instrument_id, account_id, token, action)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (instrument_id) DO UPDATE
         SET account_id = excluded.account_id, token = excluded.token, action = excluded.action`,
        [instrumentId, accountId, token, action],
      )
    },

    async getChallenge(instrumentId: string) {
      const [row] = await db.query<{
        account_id: string
        token: string
        action: ChallengeRecord['action']
      }>('SELECT account_id, token, action FROM sandbox_challenges WHERE instrument_id = $1', [
        instrumentId,
      ])
      return row === undefined
        ? undefined
        : { accountId: row.account_id, instrumentId, token: row.token, action: row.action }
    },

    async deleteChallenge(instrumentId: string) {
      await writer.query('DELETE FROM sandbox_challenges WHERE instrument_id = $1', [instrumentId])
    },

    atomically,
    atomicRequest: writes.asOne,
    // Claims and idempotency records commit on their own: other processes must see them now.
    work: createSqlWorkQueue(database, added),
    idempotency: createSqlIdempotencyRecords(database, writes),
  }
}

/**
 * Metadata as the event search compares it: every value as text, as a query string carries it,
 * so `metadata[count]=3` finds `{"count": 3}` by JSON containment. Metadata kept as a string has
 * no keys to search by.
 */
function searchableMetadata(
  metadata: Readonly<Record<string, unknown>> | string,
): Record<string, string> {
  if (typeof metadata !== 'object') return {}
  return Object.fromEntries(Object.entries(metadata).map(([key, value]) => [key, String(value)]))
}
