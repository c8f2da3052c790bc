/**
 * One event: the full-form event as formatted JSON, its delivery log, and the redeliver and
 * dismiss actions with their result.
 */
import { ApiCallError, type ApiEvent, callApi, errorText } from './api'
import { type Child, errorMessage, fact, h, main } from './dom'
import {
  chargeHref,
  dateTimeFormat,
  deliveryBadge,
  eventAmount,
  latestResult,
  resultText,
  timeElement,
  typeLabel,
} from './format'
import { poll } from './poll'

type EventAction = 'redeliver' | 'dismiss'

export function eventView(_url: URL, id: string): () => void {
  document.title = `Event ${id} · chargekit sandbox`
  const path = `/events/${encodeURIComponent(id)}`
  const heading = h('h1', { tabindex: -1 }, 'Event ', h('code', null, id))
  const summary = h('div', { 'aria-busy': 'true' }, h('p', null, 'Loading the event…'))
  const redeliverButton = h('button', { type: 'button', disabled: true }, 'Redeliver now')
  const dismissButton = h(
    'button',
    { type: 'button', class: 'secondary', disabled: true },
    'Dismiss',
  )
  const actionResult = h('p', { class: 'action-result', role: 'status' })
  const delivery = h('section', { class: 'delivery', 'aria-labelledby': 'delivery-heading' })
  const full = h('section', { class: 'full-event', 'aria-labelledby': 'json-heading' })
  main.replaceChildren(
    h('p', { class: 'crumbs' }, h('a', { href: '/dashboard' }, '← All events')),
    heading,
    summary,
    h('div', { class: 'actions' }, redeliverButton, dismissButton),
    actionResult,
    delivery,
    full,
  )

  let shown = ''
  const show = (event: ApiEvent) => {
    const json = JSON.stringify(event, null, 2)
    if (json === shown) return
    shown = json
    heading.replaceChildren(typeLabel(event), ' ', h('small', null, event.type))
    summary.setAttribute('aria-busy', 'false')
    summary.replaceChildren(eventSummary(event))
    redeliverButton.disabled = false
    dismissButton.disabled = Boolean(event.dismissed_at)
    dismissButton.textContent = event.dismissed_at ? 'Dismissed' : 'Dismiss'
    delivery.replaceChildren(...deliveryLog(event))
    full.replaceChildren(
      h('h2', { id: 'json-heading' }, 'Full event'),
      h('pre', { class: 'json', tabindex: 0, 'aria-label': 'Full event as JSON' }, json),
    )
  }

  const act = async (action: EventAction, button: HTMLButtonElement) => {
    button.disabled = true
    actionResult.className = 'action-result'
    actionResult.textContent = action === 'redeliver' ? 'Redelivering…' : 'Dismissing…'
    try {
      const event = await callApi<ApiEvent>(`${path}/${action}`, 'POST')
      show(event)
      actionResult.className = 'action-result ok'
      actionResult.textContent =
        action === 'redeliver'
          ? `Redelivered: ${event.result_status === 0 ? 'the receiver did not answer (refused or timed out)' : `the receiver answered HTTP ${event.result_status}`}. The attempt is in the delivery log below.`
          : `Dismissed at ${dateTimeFormat.format(new Date(event.dismissed_at ?? Date.now()))}.`
    } catch (error) {
      actionResult.className = 'action-result error'
      actionResult.textContent =
        (action === 'redeliver' ? 'Redelivery failed: ' : 'Dismissing failed: ') + errorText(error)
    } finally {
      redeliverButton.disabled = false
      dismissButton.disabled = dismissButton.textContent === 'Dismissed'
    }
  }
  redeliverButton.addEventListener('click', () => act('redeliver', redeliverButton))
  dismissButton.addEventListener('click', () => act('dismiss', dismissButton))

  callApi<ApiEvent>(path).then(show, (error: unknown) => {
    heading.textContent =
      error instanceof ApiCallError && error.status === 404
        ? 'Event not found'
        : 'Could not load the event'
    summary.replaceChildren(errorMessage(errorText(error)))
  })
  return poll(async () => show(await callApi<ApiEvent>(path)))
}

function eventSummary(event: ApiEvent): HTMLElement {
  const chargeId = event.charge?.id
  return h(
    'dl',
    { class: 'facts' },
    fact('Id', h('code', null, event.id)),
    fact('Created', timeElement(event.created_at)),
    fact('About', h('code', null, event.object_id)),
    fact(
      'Charge',
      chargeId
        ? h('a', { href: chargeHref(chargeId) }, 'Charge timeline ', h('code', null, chargeId))
        : '—',
    ),
    fact('Amount', eventAmount(event) || '—'),
    fact('Dismissed', event.dismissed_at ? timeElement(event.dismissed_at) : 'no'),
  )
}

function deliveryLog(event: ApiEvent): Node[] {
  const retries = Array.isArray(event.retries_log) ? event.retries_log : []
  const state = event.delivery_status || 'none'
  const eventsUrl = event.charge?.events_url
  return [
    h('h2', { id: 'delivery-heading' }, 'Delivery'),
    h(
      'dl',
      { class: 'facts' },
      fact('State', deliveryBadge(event)),
      fact('Latest result', h('span', { class: 'result-status' }, latestResult(event))),
      fact('Next attempt', h('span', { class: 'next-attempt' }, nextAttempt(event))),
      fact('Events URL', eventsUrl ? h('code', null, eventsUrl) : 'none: nothing is delivered'),
    ),
    h('h3', null, `Retries log (${retries.length})`),
    retries.length === 0
      ? h(
          'p',
          { class: 'muted' },
          state === 'none' ? 'No delivery attempts.' : 'No retries yet: only the first attempt.',
        )
      : h(
          'table',
          { class: 'retries' },
          h('caption', { class: 'visually-hidden' }, 'Retries, newest first'),
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['#', 'When', 'Result'].map((label) => h('th', { scope: 'col' }, label)),
            ),
          ),
          h(
            'tbody',
            null,
            retries.map((entry, index) =>
              h(
                'tr',
                null,
                h('td', null, String(retries.length - index)),
                h('td', null, timeElement(entry.created_at)),
                h('td', null, resultText(entry.result_status)),
              ),
            ),
          ),
        ),
  ]
}

/** A due time already past: the attempt waits for a free slot, or is under way. */
function nextAttempt(event: ApiEvent): Child {
  if (!event.next_attempt_at) return 'none scheduled'
  const due = timeElement(event.next_attempt_at)
  return Date.parse(event.next_attempt_at) <= Date.now() ? ['due now (since ', due, ')'] : due
}
