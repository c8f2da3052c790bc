/**
 * The page's calls to the sandbox API, through the dashboard server, which adds the signed-in
 * account's credentials; and the parts of the API's answers the page reads. Those are typed
 * loosely on purpose: the page shows whatever the sandbox sends, so a field it does not know
 * yet never breaks a view.
 */

import type { EventObjectKind } from '@chargekit/schemas/event-objects'
import type { Pagination } from './data-shapes'

const csrfToken = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? ''

export type { Pagination } from './data-shapes'

export interface List<Item> {
  collection: Item[]
  pagination: Pagination
}

/** A snapshot of any object an event carries, or of the charge itself. */
export interface ApiObject {
  id: string
  status?: string | null
  success?: boolean | null
  amount?: string | number | null
  currency?: string | null
  captured_amount?: string | number | null
  refunded_amount?: string | number | null
  reason?: string | null
  totals?: SettlementTotal[] | null
  failure_code?: string | null
  failure_description?: string | null
  created_at?: string | null
  params?: {
    last_4_digits?: string | null
    brand?: string | null
    phone_number?: string | null
  } | null
  redirect?: Redirect | null
}

export interface SettlementTotal {
  currency: string
  net_amount: string | number
  payments_amount: string | number
  refunds_amount: string | number
}

/** What a pending instrument asks the customer to do: open a page, or pay a reference. */
export interface Redirect {
  url: string | null
  parameters?: Record<string, string | number> | null
}

export interface Charge extends ApiObject {
  amount: string | number
  currency: string
  charge_type: string
  charge_type_label?: string | null
  confirmed?: boolean | null
  /** An object, or a string when the charge was created with one. */
  metadata?: Record<string, string> | string | null
  channels?: { label: string }[] | null
  events_url?: string | null
}

export type DeliveryStatus = 'none' | 'pending' | 'delivered' | 'failing' | 'exhausted'

export type ApiEvent = {
  id: string
  type: string
  type_label?: string | null
  created_at: string
  object_id: string
  charge?: Charge | null
  delivery_status?: DeliveryStatus | null
  result_status: number
  next_attempt_at?: string | null
  dismissed_at?: string | null
  retries_log?: { created_at: string; result_status: number }[] | null
} & { [Kind in Exclude<EventObjectKind, 'charge'>]?: ApiObject | null }

export interface RecordedRequest {
  id: string
  created_at: string
  method: string
  path: string
  status: number
  warnings: { code: string; message: string; instead: string }[]
  warnings_omitted: number
}

export class ApiCallError extends Error {
  readonly status: number

  constructor(status: number, body: unknown) {
    super(describeApiError(status, body))
    this.status = status
  }
}

interface ErrorBody {
  message?: unknown
  failure_code?: string | null
  parameters?: Record<string, string | string[]> | null
}

function describeApiError(status: number, body: unknown): string {
  const error = (typeof body === 'object' && body !== null ? body : {}) as ErrorBody
  const message = typeof error.message === 'string' ? error.message : `HTTP ${status}`
  const code = error.failure_code ? ` (${error.failure_code})` : ''
  const parameters = Object.entries(error.parameters ?? {}).map(
    ([field, messages]) => `${field}: ${[messages].flat().join(', ')}`,
  )
  return [message + code, ...parameters].join('; ')
}

/** The text to show for a failed call (or anything else thrown). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** Calls `/v2{path}` as the signed-in account; state-changing calls carry the CSRF token. */
export function callApi<Answer>(path: string, method: 'GET' | 'POST' = 'GET'): Promise<Answer> {
  return fetchJson(`/dashboard/api${path}`, method)
}

/** Reads `/dashboard/data{path}`: what the dashboard computes itself (statuses, charts). */
export function readData<Answer>(path: string): Promise<Answer> {
  return fetchJson(`/dashboard/data${path}`, 'GET')
}

async function fetchJson<Answer>(url: string, method: 'GET' | 'POST'): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken
  const response = await fetch(url, { method, headers, credentials: 'same-origin' })
  if (response.status === 401) {
    // The session is over (signed out elsewhere, idle, sandbox restarted): reloading shows sign-in.
    location.reload()
    throw new ApiCallError(401, { message: 'Signed out' })
  }
  const body: unknown = await response.json().catch(() => null)
  if (!response.ok) throw new ApiCallError(response.status, body)
  return body as Answer
}
