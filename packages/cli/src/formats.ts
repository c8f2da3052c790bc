import type { Event } from '@chargekit/client'
import {
  currencyMinorDigits,
  eventObjectKinds,
  isKnownCurrency,
  toMinorUnits,
} from '@chargekit/schemas'

/** The connection flags' help, shared by every command that calls the service. */
export const connectionHelp = `  --base-url <url>       the service (default CHARGEKIT_BASE_URL, else the local
                         sandbox at http://127.0.0.1:4010)
  --account-id <id>      default CHARGEKIT_ACCOUNT_ID, else acct_sandbox
  --private-key <key>    default CHARGEKIT_PRIVATE_KEY, else sk_sandbox
  --json                 print one JSON document for scripts instead of a table
  -h, --help             show this help
`

export const eventTableHeader = ['created_at', 'type', 'id', 'object', 'delivery']

/** One row per event: when, what, which object, and how its delivery stands. */
export function eventRows(events: readonly Event[]): string[][] {
  return events.map((event) => [
    event.created_at,
    event.type,
    event.id,
    event.object_id,
    deliveryOf(event),
  ])
}

/**
 * How the event's delivery stands, with the latest attempt's HTTP status (0: no answer):
 * `delivered (200)`, `failing (0)`, `none` when the charge has nowhere to deliver to.
 */
export function deliveryOf(event: Event): string {
  const status =
    event.delivery_status === 'none'
      ? 'none'
      : `${event.delivery_status ?? 'attempted'} (${event.result_status})`
  return event.dismissed_at ? `${status}, dismissed` : status
}

/** The objects an event's full form carries, as `[kind, object]`, absent ones left out. */
export function objectsOf(event: Event): [string, unknown][] {
  return eventObjectKinds.flatMap((kind) => (event[kind] == null ? [] : [[kind, event[kind]]]))
}

export const objectTableHeader = ['object', 'id', 'status', 'amount', 'detail']

type Loose = Record<string, unknown>

/** A resource as one table row: kind, id, status, amount, and what else matters (failure, 3DS link). */
export function describeObject(kind: string, value: unknown): string[] {
  const object = value as Loose
  const status =
    text(object.status) ??
    (object.confirmed === true ? 'confirmed' : object.confirmed === false ? 'unconfirmed' : '')
  const amount =
    typeof object.amount === 'number' ? formatAmount(object.amount, object.currency) : ''
  const redirect = (object.redirect as Loose | null | undefined)?.url
  const detail =
    text(object.failure_code) !== undefined
      ? `${object.failure_code} ${text(object.failure_description) ?? ''}`.trim()
      : (text(object.failure_description) ??
        (typeof redirect === 'string' ? `3-D Secure: ${redirect}` : ''))
  return [kind, text(object.id) ?? '', status, amount, detail]
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** `6020000.20 EUR`: the amount with its currency's minor digits, computed exactly. */
function formatAmount(amount: number, currency: unknown): string {
  if (typeof currency !== 'string' || !isKnownCurrency(currency)) return String(amount)
  const digits = currencyMinorDigits(currency)
  const minor = toMinorUnits(amount, currency)
    .toString()
    .padStart(digits + 1, '0')
  const units = digits === 0 ? minor : `${minor.slice(0, -digits)}.${minor.slice(-digits)}`
  return `${units} ${currency}`
}
