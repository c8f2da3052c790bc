import type {
  DeliveryStatus,
  DisputeStatus,
  EventType,
  InstrumentStatus,
  TransactionStatus,
} from '@chargekit/schemas'

/** Page selection of every list: `page` is 1-based, `per_page` 1–100 (default 30). */
export interface ListParams {
  page?: number
  per_page?: number
}

/** Filters of `charges.list`. */
export interface ChargeListParams extends ListParams {
  /** Charges whose metadata has these values (all of them), sent as `metadata[key]=value`. */
  metadata?: Readonly<Record<string, string>>
}

/** Filters of `payments.list`, combined with AND. */
export interface PaymentListParams extends ListParams {
  /** Payments of this charge id. */
  charge?: string
  /** Payments captured from this instrument id. */
  instrument?: string
}

/** Filters of `instruments.list`, combined with AND. */
export interface InstrumentListParams extends ListParams {
  /** Instruments (cards) tried for this charge id. */
  charge?: string
  status?: InstrumentStatus
}

/** Filters of `refunds.list`, combined with AND. */
export interface RefundListParams extends ListParams {
  /** Refunds of this payment id. */
  payment?: string
  /** Refunds of this charge id. */
  charge?: string
  status?: TransactionStatus
}

/** Filters of `reversals.list`, combined with AND. */
export interface ReversalListParams extends ListParams {
  /** Reversals of this instrument id. */
  instrument?: string
  /** Reversals of this charge id. */
  charge?: string
}

/** Filters of `disputes.list`, combined with AND. */
export interface DisputeListParams extends ListParams {
  /** Disputes of this payment id. */
  payment?: string
  /** Disputes of this charge id. */
  charge?: string
  status?: DisputeStatus
}

/** Filters of `events.list`, all combined with AND. */
export interface EventListParams extends ListParams {
  /** One type or several (any of them matches). */
  type?: EventType | readonly EventType[]
  /** Events of this charge id. */
  charge?: string
  /** Events about this object id (charge, instrument, payment, refund, …). */
  object_id?: string
  /** Events whose charge metadata has these values, sent as `metadata[key]=value`. */
  metadata?: Readonly<Record<string, string>>
  created_gte?: string | Date
  created_lte?: string | Date
  dismissed?: boolean
  /** HTTP status of the latest delivery attempt (0: no response). */
  result_status?: number
  delivery_status?: DeliveryStatus
}
