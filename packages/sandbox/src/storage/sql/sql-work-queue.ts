import type {
  AddedWorkListeners,
  ClaimedWork,
  NewWork,
  WorkKind,
  WorkPayload,
  WorkQueue,
} from '../work-queue'
import type { SqlDatabase, SqlExecutor } from './database'

interface WorkRow {
  id: string
  kind: WorkKind
  account_id: string
  payload: WorkPayload
  due_at: string
  lease: string
  /** When the item became claimable: the sort key of a claim. */
  was_available_at: string
}

/**
 * Times are stored as whole ms (`bigint`), but scaled delays have fractions: rounding up keeps
 * work from ever running early.
 */
function wholeMs(time: number): number {
  return Math.ceil(time)
}

/**
 * Puts back every claimed item, due when it was before its claim: for a database only this
 * process uses (an embedded one), whose earlier claims were all made by processes now gone.
 */
export async function releaseAbandonedClaims(db: SqlDatabase): Promise<void> {
  await db.query(
    'UPDATE sandbox_work SET lease = NULL, claimed_by = NULL, available_at = due_at WHERE lease IS NOT NULL',
  )
}

/**
 * Adds work through `executor`, so the store can add an event's work in the event's transaction.
 * One row at a time: the serial ids then follow the given order, which order keys rely on.
 */
export async function insertWork(executor: SqlExecutor, work: readonly NewWork[]): Promise<void> {
  for (const { kind, accountId, payload, dueAt, orderKey } of work) {
    await executor.query(
      `INSERT INTO sandbox_work (kind, account_id, payload, due_at, available_at, order_key, in_order)
       VALUES ($1, $2, $3::json, $4, $4, $5, $6)`,
      [
        kind,
        accountId,
        JSON.stringify(payload),
        wholeMs(dueAt),
        orderKey ?? null,
        orderKey !== undefined,
      ],
    )
  }
}

/**
 * The work queue in SQL, shared by every process on the database. A claim locks the rows it
 * takes with `FOR UPDATE SKIP LOCKED`, so two processes claiming at once take different items and
 * neither waits for the other. A claimed item's `available_at` is its lease's expiry: a claim
 * that is neither completed nor rescheduled by then (its process hangs) makes the item claimable
 * again, with a new lease that the old claim cannot use. A claim of a process known to be gone
 * (see `SqlDatabase.claims`) is claimable at once. Work is announced to `added` once committed,
 * by this process only: the others find it when they next look (every second by default).
 */
export function createSqlWorkQueue(db: SqlDatabase, added: AddedWorkListeners): WorkQueue {
  return {
    async add(work) {
      if (work.length === 0) return
      await db.transaction((tx) => insertWork(tx, work))
      added.announce(work)
    },

    async claim(kind: WorkKind, now: number, limit: number, leaseMs: number) {
      const rows = await db.query<WorkRow>(
        `WITH picked AS (
           SELECT id, available_at FROM sandbox_work item
           WHERE kind = $1 AND (available_at <= $2 OR (lease IS NOT NULL AND ${db.claims.gone('claimed_by')}))
             AND (NOT in_order OR NOT EXISTS (
               SELECT 1 FROM sandbox_work earlier
               WHERE earlier.in_order AND earlier.order_key = item.order_key AND earlier.id < item.id))
           ORDER BY available_at, id
           LIMIT $3
           FOR UPDATE SKIP LOCKED
         )
         UPDATE sandbox_work
         SET lease = gen_random_uuid()::text, available_at = $2 + $4, claimed_by = $5
         FROM picked WHERE sandbox_work.id = picked.id
         RETURNING sandbox_work.id, kind, account_id, payload, due_at, lease,
           picked.available_at AS was_available_at`,
        [kind, Math.floor(now), limit, wholeMs(leaseMs), db.claims.by],
      )
      return rows
        .sort(
          (a, b) =>
            Number(a.was_available_at) - Number(b.was_available_at) || Number(a.id) - Number(b.id),
        )
        .map(
          (row): ClaimedWork => ({
            id: row.id,
            kind: row.kind,
            accountId: row.account_id,
            payload: row.payload,
            dueAt: Number(row.due_at),
            lease: row.lease,
          }),
        )
    },

    async complete(work: ClaimedWork) {
      const rows = await db.query(
        'DELETE FROM sandbox_work WHERE id = $1 AND lease = $2 RETURNING id',
        [work.id, work.lease],
      )
      return rows.length > 0
    },

    async reschedule(work: ClaimedWork, dueAt: number, payload: WorkPayload) {
      const rows = await db.query(
        `UPDATE sandbox_work
         SET lease = NULL, claimed_by = NULL, due_at = $3, available_at = $3, payload = $4::json,
           in_order = false
         WHERE id = $1 AND lease = $2 RETURNING id`,
        [work.id, work.lease, wholeMs(dueAt), JSON.stringify(payload)],
      )
      return rows.length > 0
    },

    async nextDueAt(kind: WorkKind) {
      const [row] = await db.query<{ next: string | null }>(
        `SELECT min(available_at) AS next FROM sandbox_work item
         WHERE kind = $1 AND (NOT in_order OR NOT EXISTS (
           SELECT 1 FROM sandbox_work earlier
           WHERE earlier.in_order AND earlier.order_key = item.order_key AND earlier.id < item.id))`,
        [kind],
      )
      return row?.next == null ? undefined : Number(row.next)
    },

    onAdded: added.subscribe,
  }
}
