/**
 * One charge's lifecycle. The charge as it is now, the latest snapshot of every object its
 * events carry (instruments, payments, refunds, reversals, settlements, disputes), and the
 * events in order, with failure codes explained by the catalogue. An instrument waiting for the
 * customer shows what they were asked to do and buttons that answer for them.
 */
import type { EventObjectKind } from '@chargekit/schemas/event-objects'
import {
  ApiCallError,
  type ApiEvent,
  type ApiObject,
  type Charge,
  callApi,
  errorText,
  type List,
} from './api'
import { announce, type Child, errorMessage, fact, h, main, replaceKeepingFocus } from './dom'
import {
  deliveryBadge,
  endpointHref,
  eventAmount,
  eventHref,
  failureExplanation,
  latestResult,
  metadataText,
  money,
  subjectOf,
  timeElement,
  typeLabel,
} from './format'
import { poll } from './poll'

type GroupedKind = Exclude<EventObjectKind, 'charge'>

const objectGroups: [kind: GroupedKind, title: string][] = [
  ['instrument', 'Instruments'],
  ['payment', 'Payments'],
  ['refund', 'Refunds'],
  ['reversal', 'Reversals'],
  ['settlement', 'Settlements'],
  ['dispute', 'Disputes'],
]

/** One way the customer can answer a pending instrument, as the test helpers offer it. */
interface CustomerAnswer {
  path: 'approve' | 'decline' | 'pay' | 'expire'
  label: string
  progress: string
  done: string
  secondary?: boolean
}

type Answer = (instrument: ApiObject, customerAnswer: CustomerAnswer) => Promise<void>

export function chargeView(_url: URL, id: string): () => void {
  document.title = `Charge ${id} · chargekit sandbox`
  const body = h('div', { 'aria-busy': 'true' }, h('p', null, 'Loading the charge…'))
  // Outside the re-rendered body, so the answer's result stays once its buttons are gone.
  const actionResult = h('p', { class: 'action-result', role: 'status' })
  main.replaceChildren(
    h('p', { class: 'crumbs' }, h('a', { href: '/dashboard/charges' }, '← All charges')),
    h('h1', { tabindex: -1 }, 'Charge ', h('code', null, id)),
    actionResult,
    body,
  )
  let shown = ''
  const answer: Answer = async (instrument, customerAnswer) => {
    actionResult.className = 'action-result'
    actionResult.textContent = customerAnswer.progress
    try {
      const answered = await callApi<ApiObject>(
        `/test/instruments/${encodeURIComponent(instrument.id)}/${customerAnswer.path}`,
        'POST',
      )
      const failure = answered.failure_code
        ? ` (${answered.failure_code} ${answered.failure_description})`
        : ''
      actionResult.className = 'action-result ok'
      actionResult.textContent = `${customerAnswer.done}: instrument ${answered.id} is now ${answered.status}${failure}.`
    } catch (error) {
      actionResult.className = 'action-result error'
      actionResult.textContent = `${customerAnswer.label} failed: ${errorText(error)}`
    }
    await load()
  }
  const load = async () => {
    const [charge, events] = await Promise.all([
      callApi<Charge>(`/charges/${encodeURIComponent(id)}`),
      eventsOfCharge(id),
    ])
    const signature = JSON.stringify([charge, events])
    if (signature === shown) return
    const updated = shown !== ''
    shown = signature
    body.setAttribute('aria-busy', 'false')
    replaceKeepingFocus(
      body,
      chargeSummary(charge),
      objectsSection(charge, events, answer),
      timelineSection(events),
    )
    if (updated) announce('The charge timeline was updated')
  }
  load().catch((error: unknown) => {
    body.setAttribute('aria-busy', 'false')
    body.replaceChildren(
      errorMessage(
        error instanceof ApiCallError && error.status === 404
          ? 'No such charge for this account.'
          : `Could not load the charge: ${errorText(error)}`,
      ),
    )
  })
  return poll(load)
}

/** Every event of the charge, oldest first (the API lists newest first, 100 per page at most). */
async function eventsOfCharge(id: string): Promise<ApiEvent[]> {
  const events: ApiEvent[] = []
  for (let page = 1; ; page++) {
    const list = await callApi<List<ApiEvent>>(
      `/events?charge=${encodeURIComponent(id)}&per_page=100&page=${page}`,
    )
    events.push(...list.collection)
    if (list.collection.length === 0 || events.length >= list.pagination.total) break
  }
  return events.reverse()
}

function chargeStatus(charge: ApiObject & { confirmed?: boolean | null }): string {
  if (charge.failure_code) return 'failed'
  return charge.confirmed ? 'confirmed' : 'created'
}

function chargeSummary(charge: Charge): HTMLElement {
  return h(
    'section',
    { class: 'charge-summary', 'aria-label': 'Charge' },
    h(
      'dl',
      { class: 'facts' },
      fact('Amount', money(charge.amount, charge.currency)),
      fact('Type', charge.charge_type_label || charge.charge_type),
      fact('Status', chargeStatus(charge)),
      charge.failure_code
        ? fact('Failure', failureExplanation(charge.failure_code, charge.failure_description))
        : null,
      fact('Created', timeElement(charge.created_at)),
      fact('Metadata', metadataText(charge.metadata) || 'none'),
      fact(
        'Channels',
        (charge.channels ?? []).map((channel) => channel.label).join(', ') || 'default',
      ),
      fact(
        'Events URL',
        charge.events_url
          ? h('a', { href: endpointHref(charge.events_url) }, h('code', null, charge.events_url))
          : 'none',
      ),
    ),
    h(
      'p',
      null,
      h(
        'a',
        { href: `/dashboard?charge=${encodeURIComponent(charge.id)}` },
        'Show these events in the events list',
      ),
    ),
  )
}

/** The newest snapshot of each object wins: events are oldest first, later ones overwrite. */
function latestObjects(events: ApiEvent[]): Map<GroupedKind, Map<string, ApiObject>> {
  const groups = new Map(objectGroups.map(([kind]) => [kind, new Map<string, ApiObject>()]))
  for (const event of events) {
    for (const [kind] of objectGroups) {
      const object = event[kind]
      if (object?.id) groups.get(kind)?.set(object.id, object)
    }
  }
  return groups
}

function objectsSection(charge: Charge, events: ApiEvent[], answer: Answer): HTMLElement {
  const groups = latestObjects(events)
  const present = objectGroups.flatMap(([kind, title]) => {
    const objects = [...(groups.get(kind)?.values() ?? [])]
    return objects.length > 0 ? [{ kind, title, objects }] : []
  })
  return h(
    'section',
    { class: 'objects', 'aria-labelledby': 'objects-heading' },
    h('h2', { id: 'objects-heading' }, 'Objects'),
    present.length === 0 ? h('p', { class: 'muted' }, 'No instrument yet.') : null,
    present.map(({ kind, title, objects }) =>
      h(
        'div',
        { class: 'object-group' },
        h('h3', null, title),
        h(
          'ul',
          { class: 'cards' },
          objects.map((object) => objectCard(kind, object, charge, answer)),
        ),
      ),
    ),
  )
}

function objectStatus(kind: EventObjectKind, object: ApiObject): string {
  if (kind === 'settlement') return 'settled'
  if (kind === 'charge') return chargeStatus(object)
  if (typeof object.status === 'string') return object.status
  if (object.success === true) return 'success'
  if (object.success === false) return 'error'
  return '—'
}

function objectCard(
  kind: GroupedKind,
  object: ApiObject,
  charge: Charge,
  answer: Answer,
): HTMLElement {
  const currency = object.currency || charge.currency
  const params = object.params
  const card = params?.last_4_digits
    ? `${params.brand || 'Card'} •••• ${params.last_4_digits}`
    : null
  return h(
    'li',
    { class: 'card' },
    h('h4', null, h('code', null, object.id)),
    h(
      'dl',
      { class: 'facts' },
      fact('Status', objectStatus(kind, object)),
      object.amount !== undefined ? fact('Amount', money(object.amount, currency)) : null,
      card ? fact('Card', card) : null,
      params?.phone_number ? fact('Phone', params.phone_number) : null,
      object.captured_amount !== undefined
        ? fact('Captured', money(object.captured_amount, currency))
        : null,
      object.refunded_amount !== undefined
        ? fact('Refunded', money(object.refunded_amount, currency))
        : null,
      object.reason ? fact('Reason', object.reason) : null,
      (object.totals ?? []).map((total) =>
        fact(
          `Net ${total.currency}`,
          `${money(total.net_amount, total.currency)} (payments ${money(total.payments_amount, total.currency)}, refunds ${money(total.refunds_amount, total.currency)})`,
        ),
      ),
      object.failure_code
        ? fact('Failure', failureExplanation(object.failure_code, object.failure_description))
        : null,
      !object.failure_code && object.failure_description
        ? fact('Failure', object.failure_description)
        : null,
      fact(kind === 'settlement' ? 'Settled' : 'Created', timeElement(object.created_at)),
    ),
    kind === 'instrument' && waitsForCustomer(object)
      ? customerPanel(object, object.redirect, charge, answer)
      : null,
  )
}

/** A pending instrument with a redirect waits for the customer; one without waits for the processor. */
function waitsForCustomer(
  instrument: ApiObject,
): instrument is ApiObject & { redirect: NonNullable<ApiObject['redirect']> } {
  return instrument.status === 'pending' && Boolean(instrument.redirect)
}

/**
 * What the customer was asked to do (a page to open, or the reference or phone in
 * redirect.parameters), and buttons that answer as they would, through the test helpers. A
 * reference is paid; a page or an app notification is approved or declined; any can expire now.
 */
function customerPanel(
  instrument: ApiObject,
  redirect: NonNullable<ApiObject['redirect']>,
  charge: Charge,
  answer: Answer,
): HTMLElement {
  const parameters = redirect.parameters ?? {}
  const isReference = redirect.url === null && parameters.reference !== undefined
  const answers: CustomerAnswer[] = [
    ...(isReference
      ? [
          {
            path: 'pay',
            label: 'Pay reference',
            progress: 'Paying the reference…',
            done: 'Paid',
          } as const,
        ]
      : [
          { path: 'approve', label: 'Approve', progress: 'Approving…', done: 'Approved' } as const,
          {
            path: 'decline',
            label: 'Decline',
            progress: 'Declining…',
            done: 'Declined',
            secondary: true,
          } as const,
        ]),
    {
      path: 'expire',
      label: 'Expire now',
      progress: 'Expiring…',
      done: 'Expired',
      secondary: true,
    },
  ]
  const buttons = answers.map((customerAnswer) => {
    const button = h(
      'button',
      { type: 'button', class: customerAnswer.secondary ? 'secondary' : null },
      customerAnswer.label,
    )
    button.addEventListener('click', () => {
      for (const each of buttons) each.disabled = true
      answer(instrument, customerAnswer).finally(() => {
        for (const each of buttons) each.disabled = false
      })
    })
    return button
  })
  const currency = String(parameters.currency || charge.currency)
  return h(
    'section',
    { class: 'customer-action', 'aria-label': 'Waiting for the customer' },
    h('h5', null, 'Waiting for the customer'),
    h(
      'dl',
      { class: 'facts' },
      redirect.url
        ? fact(
            'Page',
            h(
              'a',
              { href: redirect.url, target: '_blank', rel: 'noopener' },
              isCardPage(instrument) ? '3-D Secure page' : 'Approval page',
            ),
          )
        : null,
      Object.entries(parameters)
        .filter(([name]) => name !== 'currency')
        .map(([name, value]) =>
          fact(parameterLabels[name] ?? name, parameterValue(name, value, currency)),
        ),
    ),
    h('div', { class: 'actions' }, buttons),
  )
}

function isCardPage(instrument: ApiObject): boolean {
  return Boolean(instrument.params?.last_4_digits)
}

const parameterLabels: Record<string, string> = {
  entity: 'Entity',
  reference: 'Reference',
  amount: 'Amount to pay',
  phone_number: 'Phone',
  expires_at: 'Expires',
}

function parameterValue(name: string, value: string | number, currency: string): Child {
  if (name === 'expires_at') return timeElement(String(value))
  if (name === 'amount') return money(value, currency)
  return h('code', null, String(value))
}

function timelineSection(events: ApiEvent[]): HTMLElement {
  return h(
    'section',
    { class: 'timeline-section', 'aria-labelledby': 'timeline-heading' },
    h('h2', { id: 'timeline-heading' }, `Timeline (${events.length} events)`),
    h('ol', { class: 'timeline' }, events.map(timelineItem)),
  )
}

function timelineItem(event: ApiEvent): HTMLElement {
  const subject = subjectOf(event)
  const object = subject?.object
  return h(
    'li',
    { class: `timeline-item family-${event.type.split('.')[0]}` },
    h(
      'div',
      { class: 'timeline-head' },
      timeElement(event.created_at),
      ' ',
      h('a', { href: eventHref(event.id) }, typeLabel(event)),
      ' ',
      h('span', { class: 'amount' }, eventAmount(event)),
    ),
    h(
      'div',
      null,
      h('code', null, event.object_id),
      ' ',
      subject ? h('small', null, objectStatus(subject.kind, subject.object)) : null,
    ),
    object?.failure_code
      ? h('div', null, failureExplanation(object.failure_code, object.failure_description))
      : null,
    h(
      'div',
      { class: 'delivery-line' },
      deliveryBadge(event),
      ' ',
      h('small', null, latestResult(event)),
      event.dismissed_at ? h('span', { class: 'badge badge-dismissed' }, 'Dismissed') : null,
    ),
  )
}
