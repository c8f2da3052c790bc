/** How the views show times, amounts, event types, delivery states and failures. */
import { type EventObjectKind, eventObjectKinds } from '@chargekit/schemas/event-objects'
import type { ApiEvent, ApiObject } from './api'
import { catalogue } from './catalogue'
import { type Child, h } from './dom'

export const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'medium',
})

export function timeElement(iso: string | null | undefined): HTMLElement {
  if (!iso) return h('span', { class: 'muted' }, '—')
  return h('time', { datetime: iso, title: iso }, dateTimeFormat.format(new Date(iso)))
}

/** Formats the decimal the API sent as text; the page never does arithmetic on amounts. */
export function money(
  amount: string | number | null | undefined,
  currency: string | null | undefined,
): string {
  if (amount === undefined || amount === null) return ''
  if (!currency) return String(amount)
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(
      String(amount) as Intl.StringNumericLiteral,
    )
  } catch {
    return `${amount} ${currency}`
  }
}

const typeLabels = new Map(catalogue.eventTypes.map((entry) => [entry.type, entry.label]))

export function typeLabel(event: ApiEvent): string {
  return event.type_label || typeLabels.get(event.type) || event.type
}

const deliveryLabels: Record<string, string> = {
  none: 'No delivery',
  pending: 'Pending',
  delivered: 'Delivered',
  failing: 'Failing',
  exhausted: 'Exhausted',
}

export function deliveryBadge(event: ApiEvent): HTMLElement {
  const state = event.delivery_status || 'none'
  return h('span', { class: `badge badge-${state}` }, deliveryLabels[state] || state)
}

export function resultText(status: number): string {
  return status === 0 ? 'no response' : `HTTP ${status}`
}

/** result_status is 0 both for "no answer" and before the first attempt; the state tells them apart. */
export function latestResult(event: ApiEvent): string {
  if (event.delivery_status === 'none') return 'nothing to deliver'
  if (event.delivery_status === 'pending' && event.result_status === 0) return 'not attempted yet'
  return resultText(event.result_status)
}

export function failureExplanation(code: string, description: string | null | undefined): Child {
  const info = catalogue.errorCodes[code]
  if (!info) {
    return h(
      'span',
      { class: 'failure' },
      h('code', null, code),
      ' ',
      description || '',
      ' (not a catalogue code)',
    )
  }
  return h(
    'span',
    { class: 'failure' },
    h('code', null, code),
    ' ',
    h('strong', null, info.designation),
    ' — ',
    info.description,
    '. ',
    info.category,
    info.retryable
      ? ': a later identical attempt may succeed.'
      : ': retrying unchanged will not help.',
  )
}

/** The snapshot of the object the event is about, as it stood when the event happened. */
export function subjectOf(
  event: ApiEvent,
): { kind: EventObjectKind; object: ApiObject } | undefined {
  for (const kind of eventObjectKinds) {
    const object = event[kind]
    if (object && object.id === event.object_id) return { kind, object }
  }
  return undefined
}

export function eventAmount(event: ApiEvent): string {
  const subject = subjectOf(event)?.object
  const object = subject && subject.amount !== undefined ? subject : event.charge
  if (!object) return ''
  return money(object.amount, object.currency || event.charge?.currency)
}

/** `order=7, user=42`, or a charge's metadata string as it was sent. */
export function metadataText(
  metadata: Readonly<Record<string, unknown>> | string | null | undefined,
): string {
  if (typeof metadata === 'string') return metadata
  return Object.entries(metadata ?? {})
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(', ')
}

export function eventHref(id: string): string {
  return `/dashboard/events/${encodeURIComponent(id)}`
}

export function chargeHref(id: string): string {
  return `/dashboard/charges/${encodeURIComponent(id)}`
}

/** The page of one events URL's deliveries, over `range` when given. */
export function endpointHref(eventsUrl: string, range?: string): string {
  const query = new URLSearchParams({ url: eventsUrl })
  if (range !== undefined) query.set('range', range)
  return `/dashboard/deliveries/endpoint?${query}`
}
