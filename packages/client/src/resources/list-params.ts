import type { DeliveryStatus, EventType } from '@chargekit/schemas'

/** Page selection of every list: `page` is 1-based, `per_page` 1–100 (default 30). */
export interface ListParams {
  page?: number
  per_page?: number
}

/** Filters of `payments.list`, combined with AND. */
export interface PaymentListParams extends ListParams {
  /** Payments of this charge id. */
  charge?: string
  /** Payments captured from this instrument id. */
  instrument?: string
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
