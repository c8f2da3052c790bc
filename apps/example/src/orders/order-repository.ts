import { randomBytes } from 'node:crypto'
import type { SqlExecutor } from '@chargekit/sandbox'
import type {
  CheckoutFlow,
  CustomerAction,
  Order,
  OrderFailure,
  OrderStatus,
  PaymentStep,
} from './order.js'
import type { OrderChange } from './order-transitions.js'

/** One line of an order's timeline: a lifecycle event the webhook handler processed. */
export interface OrderEventRecord {
  eventId: string
  eventType: string
  objectId: string | null
  statusAfter: OrderStatus
  receivedAt: Date
}

export interface NewOrder {
  productId: string
  description: string
  amountMinor: bigint
  currency: string
  flow: CheckoutFlow
}

interface OrderRow {
  id: string
  product_id: string
  description: string
  amount_minor: string
  currency: string
  flow: CheckoutFlow
  status: OrderStatus
  charge_id: string | null
  instrument_id: string | null
  payment_id: string | null
  captured_minor: string
  refunded_minor: string
  card_brand: string | null
  card_last4: string | null
  customer_action: StoredCustomerAction | null
  failure_step: PaymentStep | null
  failure_code: string | null
  failure_description: string | null
  version: number
  created_at: Date
  updated_at: Date
}

/** A customer action as its jsonb column holds it: the amount as text, like every bigint column. */
type StoredCustomerAction =
  | Extract<CustomerAction, { method: 'mbway' }>
  | (Omit<Extract<CustomerAction, { method: 'multibanco' }>, 'amountMinor'> & {
      amountMinor: string
    })

/** Opaque, unguessable ids: an order URL is the customer's only key to the order. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`
}

/**
 * Every SQL statement about orders. Each function takes the executor to run on, so the webhook
 * handler can compose them inside one transaction with the DeliveryStore's bookkeeping.
 */
export const orderRepository = {
  async create(db: SqlExecutor, order: NewOrder): Promise<Order> {
    const rows = await db.query<OrderRow>(
      `INSERT INTO orders (id, product_id, description, amount_minor, currency, flow, status)
       VALUES ($1, $2, $3, $4, $5, $6, 'awaiting_payment') RETURNING *`,
      [
        newId('ord'),
        order.productId,
        order.description,
        order.amountMinor.toString(),
        order.currency,
        order.flow,
      ],
    )
    return toOrder(single(rows))
  },

  async get(db: SqlExecutor, id: string): Promise<Order | undefined> {
    const rows = await db.query<OrderRow>('SELECT * FROM orders WHERE id = $1', [id])
    return rows[0] && toOrder(rows[0])
  },

  /** Locks the order's row until the transaction ends, so concurrent events apply one by one. */
  async getForUpdate(db: SqlExecutor, id: string): Promise<Order | undefined> {
    const rows = await db.query<OrderRow>('SELECT * FROM orders WHERE id = $1 FOR UPDATE', [id])
    return rows[0] && toOrder(rows[0])
  },

  async recent(db: SqlExecutor, limit: number): Promise<Order[]> {
    const rows = await db.query<OrderRow>(
      'SELECT * FROM orders ORDER BY created_at DESC, id LIMIT $1',
      [limit],
    )
    return rows.map(toOrder)
  },

  async attachCharge(db: SqlExecutor, id: string, chargeId: string): Promise<void> {
    await db.query(
      `UPDATE orders SET charge_id = $2, version = version + 1, updated_at = now()
       WHERE id = $1 AND charge_id IS NULL`,
      [id, chargeId],
    )
  },

  /**
   * Swaps a charge the service stopped (too many declined cards) for its replacement, keeping the
   * stopped charge's decline on the order. Only the order still awaiting payment on that very
   * charge changes, so a second request for the same replacement changes nothing.
   */
  async replaceCharge(
    db: SqlExecutor,
    id: string,
    change: { stopped: string; replacement: string; failure: OrderFailure },
  ): Promise<void> {
    await db.query(
      `UPDATE orders SET
         charge_id = $3,
         failure_step = $4, failure_code = $5, failure_description = $6,
         version = version + 1, updated_at = now()
       WHERE id = $1 AND charge_id = $2 AND status = 'awaiting_payment'`,
      [
        id,
        change.stopped,
        change.replacement,
        change.failure.step,
        change.failure.code,
        change.failure.description,
      ],
    )
  },

  /**
   * Notes a card the customer submitted. Only an order still awaiting payment moves to
   * 'processing': the webhook may already have marked it paid before the API call returned.
   */
  async recordCardAttempt(
    db: SqlExecutor,
    id: string,
    card: { instrumentId: string; brand: string | null; last4: string | null },
  ): Promise<void> {
    await db.query(
      `UPDATE orders SET
         status = CASE WHEN status = 'awaiting_payment' THEN 'processing' ELSE status END,
         instrument_id = COALESCE(instrument_id, $2),
         card_brand = COALESCE(card_brand, $3),
         card_last4 = COALESCE(card_last4, $4),
         failure_step = NULL, failure_code = NULL, failure_description = NULL,
         version = version + 1, updated_at = now()
       WHERE id = $1 AND status IN ('awaiting_payment', 'processing')`,
      [id, card.instrumentId, card.brand, card.last4],
    )
  },

  /**
   * Notes an instrument that waits for the customer outside the shop (an MB WAY request, a
   * Multibanco reference) and what they were asked to do. Like a card attempt, only an order
   * still before its authorization moves: the webhook may have moved it further already.
   */
  async recordAwaitingCustomer(
    db: SqlExecutor,
    id: string,
    attempt: { instrumentId: string; action: CustomerAction },
  ): Promise<void> {
    await db.query(
      `UPDATE orders SET
         status = 'awaiting_customer',
         instrument_id = $2, customer_action = $3::jsonb,
         failure_step = NULL, failure_code = NULL, failure_description = NULL,
         version = version + 1, updated_at = now()
       WHERE id = $1 AND status IN ('awaiting_payment', 'processing')`,
      [id, attempt.instrumentId, storedAction(attempt.action)],
    )
  },

  /** Shows a decline on the order; a declined charge also ends the order ('failed'). */
  async recordFailure(db: SqlExecutor, id: string, failure: OrderFailure): Promise<void> {
    await db.query(
      `UPDATE orders SET
         status = CASE WHEN $2::text = 'charge' AND charge_id IS NULL THEN 'failed' ELSE status END,
         failure_step = $2, failure_code = $3, failure_description = $4,
         version = version + 1, updated_at = now()
       WHERE id = $1`,
      [id, failure.step, failure.code, failure.description],
    )
  },

  async applyChange(db: SqlExecutor, order: Order, change: OrderChange): Promise<Order> {
    const next: Order = { ...order, ...change }
    const rows = await db.query<OrderRow>(
      `UPDATE orders SET status = $2, instrument_id = $3, payment_id = $4, captured_minor = $5,
         refunded_minor = $6, card_brand = $7, card_last4 = $8, failure_step = $9,
         failure_code = $10, failure_description = $11, customer_action = $12::jsonb,
         version = version + 1, updated_at = now()
       WHERE id = $1 RETURNING *`,
      [
        order.id,
        next.status,
        next.instrumentId,
        next.paymentId,
        next.capturedMinor.toString(),
        next.refundedMinor.toString(),
        next.cardBrand,
        next.cardLast4,
        next.failure?.step ?? null,
        next.failure?.code ?? null,
        next.failure?.description ?? null,
        next.customerAction ? storedAction(next.customerAction) : null,
      ],
    )
    return toOrder(single(rows))
  },

  async logEvent(
    db: SqlExecutor,
    orderId: string,
    event: { id: string; type: string; objectId: string | null; statusAfter: OrderStatus },
  ): Promise<void> {
    await db.query(
      `INSERT INTO order_events (order_id, event_id, event_type, object_id, status_after)
       VALUES ($1, $2, $3, $4, $5)`,
      [orderId, event.id, event.type, event.objectId, event.statusAfter],
    )
    // The timeline is part of what the live order page shows: a new line is a new version.
    await db.query('UPDATE orders SET version = version + 1 WHERE id = $1', [orderId])
  },

  /** Whether the order's timeline already holds an event of `type` about the object `objectId`. */
  async hasEventAbout(
    db: SqlExecutor,
    orderId: string,
    type: string,
    objectId: string,
  ): Promise<boolean> {
    const rows = await db.query(
      `SELECT 1 FROM order_events
       WHERE order_id = $1 AND event_type = $2 AND object_id = $3 LIMIT 1`,
      [orderId, type, objectId],
    )
    return rows.length > 0
  },

  async events(db: SqlExecutor, orderId: string): Promise<OrderEventRecord[]> {
    const rows = await db.query<{
      event_id: string
      event_type: string
      object_id: string | null
      status_after: OrderStatus
      received_at: Date
    }>('SELECT * FROM order_events WHERE order_id = $1 ORDER BY seq', [orderId])
    return rows.map((row) => ({
      eventId: row.event_id,
      eventType: row.event_type,
      objectId: row.object_id,
      statusAfter: row.status_after,
      receivedAt: row.received_at,
    }))
  },
}

function single<Row>(rows: Row[]): Row {
  const [row] = rows
  if (row === undefined) throw new Error('Expected the statement to return one row; got none.')
  return row
}

function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    productId: row.product_id,
    description: row.description,
    amountMinor: BigInt(row.amount_minor),
    currency: row.currency,
    flow: row.flow,
    status: row.status,
    chargeId: row.charge_id,
    instrumentId: row.instrument_id,
    paymentId: row.payment_id,
    capturedMinor: BigInt(row.captured_minor),
    refundedMinor: BigInt(row.refunded_minor),
    cardBrand: row.card_brand,
    cardLast4: row.card_last4,
    customerAction: row.customer_action && toCustomerAction(row.customer_action),
    failure: row.failure_step
      ? { step: row.failure_step, code: row.failure_code, description: row.failure_description }
      : null,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

function storedAction(action: CustomerAction): string {
  const stored: StoredCustomerAction =
    action.method === 'multibanco'
      ? { ...action, amountMinor: action.amountMinor.toString() }
      : action
  return JSON.stringify(stored)
}

function toCustomerAction(stored: StoredCustomerAction): CustomerAction {
  return stored.method === 'multibanco'
    ? { ...stored, amountMinor: BigInt(stored.amountMinor) }
    : stored
}
