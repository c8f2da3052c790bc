import type { DeliveryStore } from '@chargekit/webhooks'
import type { SqlExecutor } from '../db/database.js'

/**
 * The @chargekit/webhooks DeliveryStore on the shop's own database, so "this event was handled"
 * lives beside the orders it changed. A claim is a lease: a row 'in_flight' until `lease_until`;
 * a handler that crashed without releasing frees its event for the service's next retry.
 *
 * The lease token is the row version's transaction id (`xmin`): every claim, first or take-over
 * of an expired one, writes the row in a transaction of its own, so each holder's token differs
 * from the one before, and a late release by a holder whose lease was taken over matches no row.
 */
export function createSqlDeliveryStore(db: SqlExecutor): DeliveryStore & {
  /** Marks the event handled on `tx`: the webhook handler calls it in its own transaction. */
  completeIn(tx: SqlExecutor, eventId: string): Promise<void>
} {
  const completeIn = async (tx: SqlExecutor, eventId: string) => {
    await tx.query(
      `INSERT INTO processed_events (event_id, state, lease_until, completed_at)
       VALUES ($1, 'done', now(), now())
       ON CONFLICT (event_id) DO UPDATE SET state = 'done', completed_at = now()`,
      [eventId],
    )
  }
  return {
    async claim(eventId, ttlMs) {
      const [claimed] = await db.query<{ lease: string }>(
        `INSERT INTO processed_events (event_id, state, lease_until)
         VALUES ($1, 'in_flight', now() + $2::integer * interval '1 millisecond')
         ON CONFLICT (event_id) DO UPDATE SET lease_until = excluded.lease_until
           WHERE processed_events.state = 'in_flight' AND processed_events.lease_until < now()
         RETURNING xmin::text AS lease`,
        [eventId, Math.max(1, Math.ceil(ttlMs))],
      )
      if (claimed) return { status: 'claimed', lease: claimed.lease }
      const [row] = await db.query<{ state: 'in_flight' | 'done' }>(
        'SELECT state FROM processed_events WHERE event_id = $1',
        [eventId],
      )
      // No row: released between the two statements; the sender's retry will claim it.
      return { status: row?.state ?? 'in_flight' }
    },
    complete: (eventId) => completeIn(db, eventId),
    async release(eventId, lease) {
      await db.query(
        `DELETE FROM processed_events
         WHERE event_id = $1 AND state = 'in_flight' AND xmin::text = $2`,
        [eventId, lease],
      )
    },
    completeIn,
  }
}
