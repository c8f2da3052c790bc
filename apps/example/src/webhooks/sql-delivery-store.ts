import type { SqlExecutor } from '@chargekit/sandbox'
import { createSqlDeliveryStore, type SqlDeliveryStore, type SqlQuery } from '@chargekit/webhooks'

/**
 * The @chargekit/webhooks delivery store on the shop's own database, so "this event was handled"
 * lives beside the orders it changed, and holds across restarts and across several shop
 * processes on one PostgreSQL database. `migrate` (src/db/schema.ts) creates its table.
 */
export function createShopDeliveryStore(db: SqlExecutor): SqlDeliveryStore {
  return createSqlDeliveryStore({ query: queryOn(db), table: 'processed_events' })
}

/** The store's query function on a shop executor: the pool, or an open transaction. */
export function queryOn(executor: SqlExecutor): SqlQuery {
  return (text, params) => executor.query(text, params)
}
