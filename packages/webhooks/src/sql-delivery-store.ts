import type { ClaimResult, DeliveryStore } from './delivery-store'
import { WebhooksError } from './errors'
import { validRetainMs } from './retention'

/**
 * Runs one statement with `$1, $2, …` parameters and resolves to its rows, either as they are
 * (postgres.js: `(text, params) => sql.unsafe(text, params)`) or in an object's `rows`
 * (`pg`: `(text, params) => pool.query(text, params)`; PGlite: `(text, params) => db.query(text,
 * params)`). Every statement the store sends is complete on its own, so a pool is fine.
 */
export type SqlQuery = (
  text: string,
  params: (string | number)[],
) => PromiseLike<readonly object[] | { rows: readonly object[] }>

export interface SqlDeliveryStoreOptions {
  /** Runs the store's statements; see `SqlQuery`. */
  query: SqlQuery
  /**
   * The table, optionally schema-qualified (`webhooks.handled_events`); `migrate()` creates it.
   * @default 'chargekit_webhook_events'
   */
  table?: string
  /**
   * How long a completed event is kept before pruning may delete it, in milliseconds. It must
   * cover the service's retry window (about 28 hours). @default 108_000_000 (30 hours)
   */
  retainMs?: number
}

export interface SqlDeliveryStore extends DeliveryStore {
  claim(eventId: string, ttlMs: number): Promise<ClaimResult>
  complete(eventId: string): Promise<void>
  release(eventId: string, lease: string): Promise<void>
  /**
   * Marks the event done with `query` bound to your open transaction: call it from the handler,
   * in the transaction that writes the handler's effects, and the effects and the "handled" mark
   * commit together or not at all. (The receiver's own `complete` afterwards is then a no-op.)
   */
  completeIn(query: SqlQuery, eventId: string): Promise<void>
  /**
   * Deletes up to `limit` rows past the retention (completed events, and claims that expired
   * that long ago) and resolves to how many it deleted: call it again while that equals `limit`.
   * Claims also prune (at most once a minute per store, 1000 rows), so calling it is optional.
   */
  prune(options?: { limit?: number }): Promise<number>
  /** Creates the table and its index if missing. Safe to run from several processes at once. */
  migrate(): Promise<void>
  /** The `CREATE TABLE`/`CREATE INDEX` statements, for your own migration tool. */
  readonly schema: string
}

const DEFAULT_TABLE = 'chargekit_webhook_events'
const INDEX_SUFFIX = '_by_age'
const PRUNE_EVERY_MS = 60_000
const PRUNE_ON_CLAIM_LIMIT = 1_000
// Unquoted PostgreSQL identifiers; the table's leaves room for the index name's suffix within
// PostgreSQL's 63 characters.
const TABLE_NAME = /^(?:[A-Za-z_][A-Za-z0-9_]{0,62}\.)?([A-Za-z_][A-Za-z0-9_]{0,55})$/

/**
 * A `DeliveryStore` in a PostgreSQL table (a server, or PGlite), shared by every process that
 * uses the table: each event's handlers run once across restarts and across several processes.
 *
 * One row per event id. A claim is a lease: the row is `in_flight` until `lease_until`, so a
 * holder that crashed without releasing frees its event for the service's next retry. The lease
 * token is the row version's transaction id (`xmin`): every claim, first or take-over of an
 * expired one, writes the row in a transaction of its own, so each holder's token differs from
 * the one before, and a late release by a holder whose lease was taken over matches no row.
 * Times are the database's `now()`, so the processes' clocks need not agree.
 */
export function createSqlDeliveryStore(options: SqlDeliveryStoreOptions): SqlDeliveryStore {
  const query = options?.query
  if (typeof query !== 'function') {
    throw new WebhooksError(
      'invalid_configuration',
      'createSqlDeliveryStore: `query` must be a function (text, params) => rows, e.g. (text, params) => pool.query(text, params) with pg.',
    )
  }
  const table = options.table ?? DEFAULT_TABLE
  const name = TABLE_NAME.exec(table)?.[1]
  if (name === undefined) {
    throw new WebhooksError(
      'invalid_configuration',
      `createSqlDeliveryStore: table must be a table name, optionally schema-qualified: letters, digits and underscores, not starting with a digit, the table's name at most 56 characters; got ${JSON.stringify(table)}.`,
    )
  }
  const retainMs = validRetainMs('createSqlDeliveryStore', options.retainMs)

  const schema = `CREATE TABLE IF NOT EXISTS ${table} (
  event_id text PRIMARY KEY,
  state text NOT NULL CHECK (state IN ('in_flight', 'done')),
  -- in_flight: when the claim expires and another delivery may take the event over.
  lease_until timestamptz NOT NULL,
  completed_at timestamptz
);
-- Pruning finds rows by age: completed events by completion, abandoned claims by expiry.
CREATE INDEX IF NOT EXISTS ${name}${INDEX_SUFFIX} ON ${table} ((coalesce(completed_at, lease_until)));`

  const completeIn = async (run: SqlQuery, eventId: string) => {
    await rowsOf(
      run,
      `INSERT INTO ${table} (event_id, state, lease_until, completed_at)
       VALUES ($1, 'done', now(), now())
       ON CONFLICT (event_id) DO UPDATE SET state = 'done', completed_at = now()`,
      [eventId],
    )
  }

  const prune = async ({ limit = 10_000 }: { limit?: number } = {}) => {
    if (!(Number.isInteger(limit) && limit > 0)) {
      throw new WebhooksError(
        'invalid_configuration',
        `prune: limit must be a whole number > 0; got ${String(limit)}.`,
      )
    }
    // SKIP LOCKED: rows a claim or completion is writing right now are not old; others go.
    const [row] = await rowsOf(
      query,
      `WITH gone AS (
         DELETE FROM ${table} WHERE event_id IN (
           SELECT event_id FROM ${table}
           WHERE coalesce(completed_at, lease_until) < now() - $1::double precision * interval '1 millisecond'
           ORDER BY coalesce(completed_at, lease_until)
           LIMIT $2
           FOR UPDATE SKIP LOCKED)
         RETURNING 1)
       SELECT count(*)::integer AS pruned FROM gone`,
      [retainMs, limit],
    )
    return Number((row as { pruned?: unknown } | undefined)?.pruned ?? 0)
  }

  // Pruning rides on claims, so a store nobody prunes by hand still stays bounded by the event
  // rate over `retainMs`; at most once a minute per store, and a bounded batch each time.
  let lastPruneAt = Number.NEGATIVE_INFINITY
  const pruneNowAndThen = async () => {
    if (Date.now() - lastPruneAt < PRUNE_EVERY_MS) return
    lastPruneAt = Date.now()
    await prune({ limit: PRUNE_ON_CLAIM_LIMIT })
  }

  return {
    async claim(eventId, ttlMs) {
      await pruneNowAndThen()
      const [claimed] = await rowsOf(
        query,
        `INSERT INTO ${table} AS held (event_id, state, lease_until)
         VALUES ($1, 'in_flight', now() + $2::double precision * interval '1 millisecond')
         ON CONFLICT (event_id) DO UPDATE SET lease_until = excluded.lease_until
           WHERE held.state = 'in_flight' AND held.lease_until <= now()
         RETURNING xmin::text AS lease`,
        [eventId, Math.max(1, Math.ceil(ttlMs))],
      )
      if (claimed)
        return { status: 'claimed', lease: String((claimed as { lease: unknown }).lease) }
      const [row] = await rowsOf(query, `SELECT state FROM ${table} WHERE event_id = $1`, [eventId])
      // No row: released between the two statements; the service's retry will claim it.
      return { status: (row as { state?: 'in_flight' | 'done' } | undefined)?.state ?? 'in_flight' }
    },
    complete: (eventId) => completeIn(query, eventId),
    async release(eventId, lease) {
      await rowsOf(
        query,
        `DELETE FROM ${table} WHERE event_id = $1 AND state = 'in_flight' AND xmin::text = $2`,
        [eventId, lease],
      )
    },
    completeIn,
    prune,
    async migrate() {
      // One statement, so one transaction, under an advisory lock: two processes starting
      // together would otherwise race in CREATE TABLE IF NOT EXISTS and one of them would fail.
      await rowsOf(
        query,
        `DO $migrate$ BEGIN
           PERFORM pg_advisory_xact_lock(hashtext('@chargekit/webhooks ${table}'));
           ${schema}
         END $migrate$`,
        [],
      )
    },
    schema,
  }
}

/** The rows of a statement, whichever of the two result shapes the driver resolves to. */
async function rowsOf(
  query: SqlQuery,
  text: string,
  params: (string | number)[],
): Promise<readonly object[]> {
  const result = await query(text, params)
  if (Array.isArray(result)) return result
  const rows = (result as { rows?: unknown } | null | undefined)?.rows
  if (Array.isArray(rows)) return rows
  throw new WebhooksError(
    'invalid_configuration',
    `createSqlDeliveryStore: query must resolve to the rows (an array, as postgres.js's sql.unsafe does) or to an object with a rows array (as pg's pool.query and PGlite's db.query do); got ${result === null ? 'null' : typeof result}.`,
  )
}
