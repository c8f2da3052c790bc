import type {
  AddedWorkListeners,
  ClaimedWork,
  NewWork,
  WorkKind,
  WorkOutcome,
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
 * One row at a time: the serial ids then follow the given order, so work due at the same time is
 * claimed in the order it was added.
 */
export async function insertWork(executor: SqlExecutor, work: readonly NewWork[]): Promise<void> {
  for (const { kind, accountId, payload, dueAt } of work) {
    await executor.query(
      `INSERT INTO sandbox_work (kind, account_id, payload, due_at, available_at)
       VALUES ($1, $2, $3::json, $4, $4)`,
      [kind, accountId, JSON.stringify(payload), wholeMs(dueAt)],
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
  /**
   * Two statements for any number of outcomes, the items and their leases passed as one JSON
   * parameter: one removes the finished items, one puts the others back to wait.
   */
  async function finish(outcomes: readonly WorkOutcome[]): Promise<boolean[]> {
    const done = outcomes.filter((outcome) => outcome.done)
    const later = outcomes.flatMap((outcome) =>
      outcome.done
        ? []
        : [
            {
              id: outcome.work.id,
              lease: outcome.work.lease,
              due_at: wholeMs(outcome.dueAt),
              payload: outcome.payload,
            },
          ],
    )
    const [removed, putBack] = await Promise.all([
      done.length === 0
        ? []
        : db.query<{ id: string }>(
            `DELETE FROM sandbox_work USING json_to_recordset($1::json) AS done(id bigint, lease text)
             WHERE sandbox_work.id = done.id AND sandbox_work.lease = done.lease
             RETURNING sandbox_work.id`,
            [JSON.stringify(done.map(({ work }) => ({ id: work.id, lease: work.lease })))],
          ),
      later.length === 0
        ? []
        : db.query<{ id: string }>(
            `UPDATE sandbox_work
             SET lease = NULL, claimed_by = NULL, due_at = later.due_at,
               available_at = later.due_at, payload = later.payload
             FROM json_to_recordset($1::json) AS later(id bigint, lease text, due_at bigint, payload json)
             WHERE sandbox_work.id = later.id AND sandbox_work.lease = later.lease
             RETURNING sandbox_work.id`,
            [JSON.stringify(later)],
          ),
    ])
    const held = new Set([...removed, ...putBack].map(({ id }) => String(id)))
    return outcomes.map(({ work }) => held.has(work.id))
  }

  return {
    async add(work) {
      if (work.length === 0) return
      await db.transaction((tx) => insertWork(tx, work))
      added.announce(work)
    },

    async claim(kind: WorkKind, now: number, limit: number, leaseMs: number) {
      const rows = await db.query<WorkRow>(
        `WITH picked AS (
           SELECT id, available_at FROM sandbox_work
           WHERE kind = $1 AND (available_at <= $2 OR (lease IS NOT NULL AND ${db.claims.gone('claimed_by')}))
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

    complete: async (work: ClaimedWork) => (await finish([{ work, done: true }]))[0] === true,

    reschedule: async (work: ClaimedWork, dueAt: number, payload: WorkPayload) =>
      (await finish([{ work, done: false, dueAt, payload }]))[0] === true,

    finish,

    async pullForward(kind, { accountId, payload }, now, limit) {
      const fields = Object.entries(payload)
      // Only waiting items not yet due and not claimed; the `sandbox_work_due` index finds them
      // from `now` on, and the match is read from the payload of those alone.
      const rows = await db.query(
        `WITH picked AS (
           SELECT id FROM sandbox_work
           WHERE kind = $1 AND account_id = $2 AND lease IS NULL AND available_at > $3
             ${fields.map((_, index) => `AND payload->>$${5 + 2 * index} = $${6 + 2 * index}`).join(' ')}
           ORDER BY available_at, id
           LIMIT $4
           FOR UPDATE SKIP LOCKED
         )
         UPDATE sandbox_work SET due_at = $3, available_at = $3
         FROM picked WHERE sandbox_work.id = picked.id
         RETURNING sandbox_work.id`,
        [kind, accountId, Math.floor(now), limit, ...fields.flat()],
      )
      return rows.length
    },

    async nextDueAt(kind: WorkKind) {
      const [row] = await db.query<{ next: string | null }>(
        'SELECT min(available_at) AS next FROM sandbox_work WHERE kind = $1',
        [kind],
      )
      return row?.next == null ? undefined : Number(row.next)
    },

    onAdded: added.subscribe,
  }
}
