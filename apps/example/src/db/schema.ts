import type { SqlExecutor } from '@chargekit/sandbox'
import { createShopDeliveryStore } from '../webhooks/sql-delivery-store.js'

/**
 * The shop's tables. Idempotent (`IF NOT EXISTS`), so starting the shop migrates a fresh
 * database and leaves an existing one alone. Amounts are integer minor units (`bigint`).
 */
const statements = [
  `CREATE TABLE IF NOT EXISTS orders (
    id text PRIMARY KEY,
    product_id text NOT NULL,
    description text NOT NULL,
    amount_minor bigint NOT NULL CHECK (amount_minor > 0),
    currency text NOT NULL,
    flow text NOT NULL,
    status text NOT NULL,
    charge_id text UNIQUE,
    instrument_id text,
    payment_id text,
    captured_minor bigint NOT NULL DEFAULT 0,
    refunded_minor bigint NOT NULL DEFAULT 0,
    card_brand text,
    card_last4 text,
    customer_action jsonb,
    failure_step text,
    failure_code text,
    failure_description text,
    version integer NOT NULL DEFAULT 1,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  // A log, not a set: no unique key on event_id, so a webhook handled twice would show twice.
  `CREATE TABLE IF NOT EXISTS order_events (
    seq bigserial PRIMARY KEY,
    order_id text NOT NULL REFERENCES orders (id),
    event_id text NOT NULL,
    event_type text NOT NULL,
    object_id text,
    status_after text NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now()
  )`,
  // Databases created before MB WAY and Multibanco lack the column.
  'ALTER TABLE orders ADD COLUMN IF NOT EXISTS customer_action jsonb',
  'CREATE INDEX IF NOT EXISTS order_events_by_order ON order_events (order_id, seq)',
  `CREATE TABLE IF NOT EXISTS scenario_runs (
    id text PRIMARY KEY,
    code text NOT NULL,
    element text NOT NULL,
    order_id text REFERENCES orders (id),
    result jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
]

export async function migrate(db: SqlExecutor): Promise<void> {
  for (const statement of statements) await db.query(statement)
  // Handled webhook events (processed_events): the table @chargekit/webhooks' store defines.
  await createShopDeliveryStore(db).migrate()
}
