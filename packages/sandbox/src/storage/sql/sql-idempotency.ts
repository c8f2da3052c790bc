import { randomUUID } from 'node:crypto'
import {
  type IdempotencyRecords,
  type IdempotentAnswer,
  idempotencyTtlMs,
  inFlightLeaseMs,
  type Reservation,
} from '../idempotency-records'
import type { AtomicWrites } from './atomic-writes'
import type { SqlDatabase } from './database'

interface RecordRow {
  fingerprint: string
  /** null while its request is still running. */
  result: IdempotentAnswer | null
}

// Expired records are deleted in passing, at most this often per process.
const purgeEveryMs = 60_000

/**
 * Frees every key whose request was still running: for a database only one process uses (the
 * embedded one), at start-up, since a request in flight then died with the previous process.
 * A retry then runs at once instead of waiting out the in-flight lease.
 */
export async function releaseAbandonedReservations(db: SqlDatabase): Promise<void> {
  await db.query('DELETE FROM sandbox_idempotency WHERE result IS NULL')
}

/**
 * Idempotency records in SQL. A reservation is one upsert that takes the key only when no live
 * record holds it (none, an expired one, or one whose request died mid-way), so two processes
 * reserving one key at once cannot both win. It records its process (`owner`): a key whose
 * owner is gone (`SqlDatabase.claims`) is free at once, as its lease would be. That is safe
 * because the answer is stored in the transaction of the request's writes (`finish` and
 * `release` go through `writes`, see `SandboxStore.atomicRequest`): a running key whose owner
 * died never has a committed step behind it.
 */
export function createSqlIdempotencyRecords(
  db: SqlDatabase,
  writes: AtomicWrites,
  ttlMs = idempotencyTtlMs,
): IdempotencyRecords {
  let nextPurgeAt = 0

  async function purge(now: number) {
    if (now < nextPurgeAt) return
    nextPurgeAt = now + purgeEveryMs
    await db.query('DELETE FROM sandbox_idempotency WHERE expires_at <= $1', [now])
  }

  return {
    async reserve(accountId, key, fingerprint, now): Promise<Reservation> {
      await purge(now)
      const token = randomUUID()
      // A record deleted between the upsert and the read (its request released it) is retried.
      // Records made before owners were kept (owner null) wait for their lease.
      for (;;) {
        const taken = await db.query(
          `INSERT INTO sandbox_idempotency
             (account_id, key, fingerprint, token, result, lease_until, expires_at, owner)
           VALUES ($1, $2, $3, $4, NULL, $5, $6, $8)
           ON CONFLICT (account_id, key) DO UPDATE SET
             fingerprint = excluded.fingerprint, token = excluded.token, result = NULL,
             lease_until = excluded.lease_until, expires_at = excluded.expires_at,
             owner = excluded.owner
           WHERE sandbox_idempotency.expires_at <= $7
             OR (sandbox_idempotency.result IS NULL AND (sandbox_idempotency.lease_until <= $7
               OR (sandbox_idempotency.owner IS NOT NULL
                 AND ${db.claims.gone('sandbox_idempotency.owner')})))
           RETURNING token`,
          [
            accountId,
            key,
            fingerprint,
            token,
            now + inFlightLeaseMs,
            now + ttlMs,
            now,
            db.claims.by,
          ],
        )
        if (taken.length > 0) return { state: 'reserved', token }
        const [held] = await db.query<RecordRow>(
          'SELECT fingerprint, result FROM sandbox_idempotency WHERE account_id = $1 AND key = $2',
          [accountId, key],
        )
        if (held === undefined) continue
        return held.result === null
          ? { state: 'running', fingerprint: held.fingerprint }
          : { state: 'done', fingerprint: held.fingerprint, answer: held.result }
      }
    },

    async finish(accountId, key, token, answer) {
      const stored = await writes.writes.query(
        `UPDATE sandbox_idempotency SET result = $4::json
         WHERE account_id = $1 AND key = $2 AND token = $3 RETURNING token`,
        [accountId, key, token, JSON.stringify(answer)],
      )
      return stored.length > 0
    },

    async release(accountId, key, token) {
      const freed = await writes.writes.query(
        'DELETE FROM sandbox_idempotency WHERE account_id = $1 AND key = $2 AND token = $3 RETURNING token',
        [accountId, key, token],
      )
      return freed.length > 0
    },
  }
}
