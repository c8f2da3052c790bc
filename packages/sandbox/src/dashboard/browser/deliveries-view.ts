/**
 * Deliveries by events URL: the list of the account's receivers and how each is doing, and a page
 * per receiver with its attempts, success rate and durations over time, its latest failures and
 * why they failed, and a button that redelivers a failed event now.
 */
import { ApiCallError, type ApiEvent, callApi, errorText, readData } from './api'
import { columnChart, lineChart } from './charts'
import type { AttemptRow, ReceiverAnswer, ReceiverSummary, ReceiversAnswer } from './data-shapes'
import { errorMessage, fact, h, main, replaceKeepingFocus } from './dom'
import { chargeHref, endpointHref, eventHref, resultText, timeElement } from './format'
import { poll } from './poll'
import { rangeOf, rangePicker } from './range-picker'

const keptNote =
  'Counted since this sandbox started, for the attempts it made itself; the latest 500 attempts of each URL are kept in detail.'

export function deliveriesView(): () => void {
  document.title = 'Deliveries · chargekit sandbox'
  const results = h('div', { class: 'results', 'aria-busy': 'true' }, h('p', null, 'Loading…'))
  main.replaceChildren(
    h('h1', { tabindex: -1 }, 'Deliveries'),
    h(
      'p',
      { class: 'muted' },
      `Each events URL your charges name, and how its deliveries went. ${keptNote}`,
    ),
    signingPanel(),
    results,
  )
  let shown = ''
  const load = async () => {
    const receivers = await readData<ReceiversAnswer>('/deliveries')
    const signature = JSON.stringify(receivers)
    if (signature === shown) return
    shown = signature
    results.setAttribute('aria-busy', 'false')
    replaceKeepingFocus(results, receiversTable(receivers.collection))
  }
  load().catch((error: unknown) => {
    results.setAttribute('aria-busy', 'false')
    results.replaceChildren(errorMessage(`Could not load deliveries: ${errorText(error)}`))
  })
  return poll(load)
}

/**
 * The account's signing secret, behind a click: what the receiver at each events URL checks
 * deliveries with (Standard Webhooks), as `chargekit listen` and the sandbox's banner print it.
 */
function signingPanel(): HTMLElement {
  const secret = h('p', { class: 'signing-secret', role: 'status' })
  const panel = h(
    'details',
    { class: 'signing' },
    h('summary', null, 'Signing secret'),
    h(
      'p',
      { class: 'muted' },
      'Every delivery carries Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature), signed with this secret: give it to your receiver, as createWebhooks({ client, secret }), to refuse forged deliveries.',
    ),
    secret,
  )
  panel.addEventListener(
    'toggle',
    async () => {
      try {
        const { signing_secret } = await callApi<{ signing_secret: string | null }>(
          '/test/signing_secret',
        )
        secret.replaceChildren(
          signing_secret === null
            ? 'Deliveries go unsigned: the sandbox was started with --no-signing, as the production service sends them.'
            : h('code', null, signing_secret),
        )
      } catch (error) {
        secret.replaceChildren(
          errorMessage(`Could not read the signing secret: ${errorText(error)}`),
        )
      }
    },
    { once: true },
  )
  return panel
}

export function receiversTable(receivers: readonly ReceiverSummary[]): HTMLElement {
  if (receivers.length === 0) {
    return h(
      'p',
      { class: 'empty' },
      'No delivery attempts yet. Create a charge with an events_url and its events are delivered there.',
    )
  }
  return h(
    'table',
    { class: 'receivers' },
    h('caption', { class: 'visually-hidden' }, 'Events URLs, most recently attempted first'),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        ['Events URL', 'Attempts', 'Succeeded', 'Median time', 'Last attempt'].map((label) =>
          h('th', { scope: 'col' }, label),
        ),
      ),
    ),
    h(
      'tbody',
      null,
      receivers.map((receiver) =>
        h(
          'tr',
          { 'data-url': receiver.url },
          h(
            'td',
            { 'data-label': 'Events URL' },
            h('a', { href: endpointHref(receiver.url) }, h('code', null, receiver.url)),
          ),
          h('td', { 'data-label': 'Attempts', class: 'amount' }, String(receiver.attempts)),
          h(
            'td',
            { 'data-label': 'Succeeded' },
            rateBadge(receiver),
            h('small', null, `${receiver.succeeded} of ${receiver.attempts}`),
          ),
          h('td', { 'data-label': 'Median time', class: 'amount' }, duration(receiver.median_ms)),
          h(
            'td',
            { 'data-label': 'Last attempt' },
            receiver.last_attempt ? timeElement(receiver.last_attempt.at) : '—',
            receiver.last_attempt ? h('small', null, attemptResult(receiver.last_attempt)) : null,
          ),
        ),
      ),
    ),
  )
}

export function endpointView(url: URL): () => void {
  const eventsUrl = url.searchParams.get('url') ?? ''
  const range = rangeOf(url)
  document.title = 'Deliveries to an events URL · chargekit sandbox'
  const body = h('div', { class: 'results', 'aria-busy': 'true' }, h('p', null, 'Loading…'))
  const actionResult = h('p', { class: 'action-result', role: 'status' })
  main.replaceChildren(
    h('p', { class: 'crumbs' }, h('a', { href: '/dashboard/deliveries' }, '← All events URLs')),
    h('h1', { tabindex: -1 }, 'Deliveries to ', h('code', null, eventsUrl)),
    rangePicker(range, (each) => endpointHref(eventsUrl, each)),
    actionResult,
    body,
  )
  let shown = ''
  const load = async () => {
    const receiver = await readData<ReceiverAnswer>(
      `/deliveries/endpoint?${new URLSearchParams({ url: eventsUrl, range })}`,
    )
    const signature = JSON.stringify(receiver)
    if (signature === shown) return
    shown = signature
    body.setAttribute('aria-busy', 'false')
    replaceKeepingFocus(body, ...receiverSections(receiver, redeliver))
  }
  const redeliver = async (attempt: AttemptRow, button: HTMLButtonElement) => {
    button.disabled = true
    actionResult.className = 'action-result'
    actionResult.textContent = `Redelivering ${attempt.event_type} ${attempt.event_id}…`
    try {
      const event = await callApi<ApiEvent>(
        `/events/${encodeURIComponent(attempt.event_id)}/redeliver`,
        'POST',
      )
      const ok = event.result_status >= 200 && event.result_status < 300
      actionResult.className = `action-result ${ok ? 'ok' : 'error'}`
      actionResult.textContent = `Redelivered ${event.id}: ${event.result_status === 0 ? 'the receiver did not answer' : `the receiver answered HTTP ${event.result_status}`}.`
    } catch (error) {
      actionResult.className = 'action-result error'
      actionResult.textContent = `Redelivery failed: ${errorText(error)}`
    } finally {
      button.disabled = false
    }
    await load()
  }
  load().catch((error: unknown) => {
    body.setAttribute('aria-busy', 'false')
    body.replaceChildren(
      errorMessage(
        error instanceof ApiCallError && error.status === 404
          ? `No delivery attempts to this URL since the sandbox started. ${errorText(error)}.`
          : `Could not load the deliveries: ${errorText(error)}`,
      ),
    )
  })
  return poll(load)
}

type Redeliver = (attempt: AttemptRow, button: HTMLButtonElement) => Promise<void>

function receiverSections(receiver: ReceiverAnswer, redeliver: Redeliver): HTMLElement[] {
  const chart = { buckets: receiver.buckets, bucketMs: receiver.bucket_ms }
  const series = receiver.series
  return [
    h(
      'dl',
      { class: 'facts' },
      fact('Attempts', String(receiver.attempts)),
      fact('Succeeded', [rateBadge(receiver), ` ${receiver.succeeded} of ${receiver.attempts}`]),
      fact('Median time', duration(receiver.median_ms)),
      fact(
        'Last attempt',
        receiver.last_attempt
          ? [timeElement(receiver.last_attempt.at), ` ${attemptResult(receiver.last_attempt)}`]
          : '—',
      ),
    ),
    h('p', { class: 'muted' }, keptNote),
    h(
      'div',
      { class: 'charts' },
      columnChart({
        ...chart,
        title: 'Attempts',
        series: [
          {
            name: 'succeeded',
            className: 'series-ok',
            values: series.map((bucket) => bucket.succeeded),
          },
          {
            name: 'failed',
            className: 'series-bad',
            values: series.map((bucket) => bucket.attempts - bucket.succeeded),
          },
        ],
        format: (value) => String(Math.round(value * 10) / 10),
      }),
      lineChart({
        ...chart,
        title: 'Success rate',
        series: [
          {
            name: 'succeeded',
            className: 'series-ok',
            values: series.map((bucket) =>
              bucket.attempts === 0 ? null : bucket.succeeded / bucket.attempts,
            ),
          },
        ],
        format: (value) => `${Math.round(value * 100)} %`,
        fixedMax: 1,
      }),
      lineChart({
        ...chart,
        title: 'Time to answer',
        series: [
          { name: 'median', className: 'series-accent', values: series.map((b) => b.p50_ms) },
          {
            name: '95th percentile',
            className: 'series-warn',
            values: series.map((b) => b.p95_ms),
          },
        ],
        format: (value) => duration(value),
      }),
    ),
    h(
      'section',
      { 'aria-labelledby': 'failures-heading' },
      h('h2', { id: 'failures-heading' }, `Latest failures (${receiver.failures.length})`),
      failuresTable(receiver.failures, redeliver),
    ),
  ]
}

function failuresTable(failures: readonly AttemptRow[], redeliver: Redeliver): HTMLElement {
  if (failures.length === 0) {
    return h('p', { class: 'empty' }, 'No failed attempt among those kept.')
  }
  return h(
    'table',
    { class: 'failures' },
    h('caption', { class: 'visually-hidden' }, 'Failed attempts, newest first'),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        ['When', 'Event', 'Why it failed', 'Time', ''].map((label) =>
          h('th', { scope: 'col' }, label),
        ),
      ),
    ),
    h(
      'tbody',
      null,
      failures.map((attempt) => {
        const button = h('button', { type: 'button', class: 'secondary' }, 'Redeliver')
        button.addEventListener('click', () => redeliver(attempt, button))
        return h(
          'tr',
          { 'data-event-id': attempt.event_id },
          h(
            'td',
            { 'data-label': 'When' },
            timeElement(attempt.at),
            h('small', null, kindLabels[attempt.kind]),
          ),
          h(
            'td',
            { 'data-label': 'Event' },
            h('a', { href: eventHref(attempt.event_id) }, attempt.event_type),
            h('small', null, h('a', { href: chargeHref(attempt.charge_id) }, attempt.charge_id)),
          ),
          h('td', { 'data-label': 'Why it failed', class: 'reason' }, attemptResult(attempt)),
          h('td', { 'data-label': 'Time', class: 'amount' }, duration(attempt.duration_ms)),
          h('td', { 'data-label': '' }, button),
        )
      }),
    ),
  )
}

const kindLabels: Record<AttemptRow['kind'], string> = {
  first: 'first attempt',
  retry: 'automatic retry',
  manual: 'redelivered by hand',
}

/** `HTTP 500`, or why no answer came: `no response (ECONNREFUSED)`. */
function attemptResult(attempt: AttemptRow): string {
  const result = resultText(attempt.result_status)
  return attempt.failure ? `${result} (${attempt.failure})` : result
}

function rateBadge(receiver: ReceiverSummary): HTMLElement {
  const percent = Math.floor(receiver.success_rate * 1000) / 10
  const state = percent === 100 ? 'delivered' : percent >= 90 ? 'pending' : 'exhausted'
  return h('span', { class: `badge badge-${state}` }, `${percent} %`)
}

function duration(ms: number | null): string {
  if (ms === null) return '—'
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`
}
