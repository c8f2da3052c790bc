/**
 * What the dashboard's own read endpoints (`/dashboard/data/…`) answer: the charges search, the
 * overview and the delivery statistics per events URL. Shared by the server that computes them
 * and the page that draws them, so neither can drift from the other. Types and plain data only.
 */

/**
 * Where a charge stands as a whole, derived from the charge and its instruments, payments and
 * disputes: the word a person scanning a list of charges looks for.
 */
export const chargeStatuses = [
  ['unconfirmed', 'Unconfirmed', 'started by the customer, waiting for the merchant to confirm'],
  ['open', 'Open', 'confirmed, no payment details yet'],
  [
    'pending',
    'Pending',
    'waiting for the customer (3-D Secure, an app, a reference) or the processor',
  ],
  ['authorized', 'Authorized', 'the customer authorized it; nothing captured yet'],
  ['paid', 'Paid', 'captured'],
  ['partially_refunded', 'Partly refunded', 'captured, part of it refunded'],
  ['refunded', 'Refunded', 'captured and refunded in full'],
  ['disputed', 'Disputed', 'the customer disputed a payment (open or lost)'],
  ['declined', 'Declined', 'the latest payment details were declined'],
  ['canceled', 'Canceled', 'the authorization was reversed or the instrument invalidated'],
  ['failed', 'Failed', 'the charge step itself failed'],
] as const

export type ChargeStatus = (typeof chargeStatuses)[number][0]

export interface Pagination {
  page: number
  per_page: number
  total: number
}

/** A failure code with the text the service gave for it. */
export interface Failure {
  code: string
  description: string | null
}

/** One charge in the charges list. Amounts are the API's JSON numbers, exact in minor units. */
export interface ChargeRow {
  id: string
  created_at: string
  amount: number
  currency: string
  charge_type: string
  charge_type_label: string
  /** An object, or a string when the charge was created with one. */
  metadata: Record<string, unknown> | string
  events_url: string
  status: ChargeStatus
  /** The latest failure of the charge or one of its instruments or payments. */
  failure: Failure | null
  /** Card brand and last digits of the latest instrument, when it is a card. */
  card: { brand: string | null; last_4_digits: string } | null
  captured_amount: number
  refunded_amount: number
}

export interface ChargeSearchAnswer {
  collection: ChargeRow[]
  pagination: Pagination
  filters: Record<string, unknown>
  /** How many of the newest charges were searched; `truncated` when older ones were not. */
  scanned: number
  truncated: boolean
}

/** The time windows the charts offer, each cut into equal buckets. */
export const insightRanges = {
  '1h': { label: 'Last hour', bucketMs: 60_000, buckets: 60 },
  '24h': { label: 'Last 24 hours', bucketMs: 30 * 60_000, buckets: 48 },
  '7d': { label: 'Last 7 days', bucketMs: 4 * 3_600_000, buckets: 42 },
  '30d': { label: 'Last 30 days', bucketMs: 24 * 3_600_000, buckets: 30 },
} as const

export type InsightRange = keyof typeof insightRanges

/** A window of equal buckets: `buckets` holds each one's start, oldest first. */
export interface TimeWindow {
  range: InsightRange
  from: string
  to: string
  bucket_ms: number
  buckets: string[]
}

export interface OverviewAnswer extends TimeWindow {
  /** Charges created, per bucket. */
  charges: { total: number; counts: number[] }
  /** Successful payments per currency, largest total first: per-bucket amounts and counts. */
  volume: { currency: string; total: number; count: number; amounts: number[]; counts: number[] }[]
  /** Failed steps by failure code, most frequent first; `steps` counts them by object. */
  declines: { code: string; count: number; steps: Record<string, number> }[]
  /** How many events were read; `truncated` when the window held more than could be read. */
  events_read: number
  truncated: boolean
}

/** One delivery attempt to an events URL. */
export interface AttemptRow {
  at: string
  event_id: string
  event_type: string
  charge_id: string
  result_status: number
  /** Why no status came (`ECONNREFUSED`, `timeout after 10 s`); null when one did. */
  failure: string | null
  duration_ms: number
  kind: 'first' | 'retry' | 'manual'
}

/** An events URL of the account and how deliveries to it went since the sandbox started. */
export interface ReceiverSummary {
  url: string
  attempts: number
  succeeded: number
  /** Succeeded / attempts, 0–1. */
  success_rate: number
  last_attempt: AttemptRow | null
  /** Median duration of the attempts kept in detail. */
  median_ms: number | null
}

export interface ReceiversAnswer {
  collection: ReceiverSummary[]
}

export interface ReceiverAnswer extends ReceiverSummary, TimeWindow {
  /** Per bucket: attempts, how many succeeded, and the median and 95th percentile durations. */
  series: { attempts: number; succeeded: number; p50_ms: number | null; p95_ms: number | null }[]
  /** The latest failed attempts, newest first. */
  failures: AttemptRow[]
  /** Attempts kept in detail (the charts and failures draw on these; the totals on all). */
  kept: number
}
