/**
 * Browser code, part 1 of the single dashboard script (see dashboard-script.ts): element
 * building, API calls through the dashboard proxy, formatting, and polling. Plain JavaScript in a
 * string so it ships inside the package with no build step; it uses no template literals, which
 * keeps it safe inside this one.
 */
export const coreScript = `
const main = document.getElementById('main')
const statusRegion = document.getElementById('status')
const liveBadge = document.getElementById('live')
const csrfToken = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content') ?? ''
const pollIntervalMs = Number(main?.dataset.pollMs) || 3000
const wideScreen = window.matchMedia('(min-width: 48rem)')

// Builds an element. Children are nodes or text, never parsed as HTML, so data cannot inject markup.
function h(tag, attributes, ...children) {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue
    if (typeof value === 'function') element.addEventListener(name.slice(2), value)
    else element.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false || child === '') continue
    element.append(child instanceof Node ? child : String(child))
  }
  return element
}

// Replaces a container's content and keeps keyboard focus on the same link if it is still there.
function replaceKeepingFocus(container, ...nodes) {
  const focused = document.activeElement
  const href = focused && container.contains(focused) ? focused.getAttribute('href') : null
  container.replaceChildren(...nodes)
  if (href) container.querySelector('[href="' + CSS.escape(href) + '"]')?.focus()
}

function announce(message) {
  statusRegion.textContent = message
}

function fact(label, value) {
  return [h('dt', null, label), h('dd', null, value)]
}

function errorMessage(text) {
  return h('p', { class: 'error', role: 'alert' }, text)
}

class ApiCallError extends Error {
  constructor(status, body) {
    super(describeApiError(status, body))
    this.status = status
  }
}

function describeApiError(status, body) {
  const message = typeof body?.message === 'string' ? body.message : 'HTTP ' + status
  const code = body?.failure_code ? ' (' + body.failure_code + ')' : ''
  const parameters = Object.entries(body?.parameters ?? {}).map(
    ([field, messages]) => field + ': ' + [].concat(messages).join(', '),
  )
  return [message + code, ...parameters].join('; ')
}

// Every API call goes through the dashboard server, which adds the account's credentials.
async function callApi(path, method = 'GET') {
  const headers = { accept: 'application/json' }
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken
  const response = await fetch('/dashboard/api' + path, { method, headers, credentials: 'same-origin' })
  if (response.status === 401) {
    // The session is over (signed out elsewhere, idle, sandbox restarted): reloading shows sign-in.
    location.reload()
    throw new ApiCallError(401, { message: 'Signed out' })
  }
  const body = await response.json().catch(() => null)
  if (!response.ok) throw new ApiCallError(response.status, body)
  return body
}

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' })

function timeElement(iso) {
  if (!iso) return h('span', { class: 'muted' }, '—')
  return h('time', { datetime: iso, title: iso }, dateTimeFormat.format(new Date(iso)))
}

// Formats the decimal the API sent as text; the page never does arithmetic on amounts.
function money(amount, currency) {
  if (amount === undefined || amount === null) return ''
  if (!currency) return String(amount)
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(String(amount))
  } catch {
    return amount + ' ' + currency
  }
}

const typeLabels = new Map(catalogue.eventTypes.map((entry) => [entry.type, entry.label]))

function typeLabel(event) {
  return event.type_label || typeLabels.get(event.type) || event.type
}

const deliveryLabels = {
  none: 'No delivery',
  pending: 'Pending',
  delivered: 'Delivered',
  failing: 'Failing',
  exhausted: 'Exhausted',
}

function deliveryBadge(event) {
  const state = event.delivery_status || 'none'
  return h('span', { class: 'badge badge-' + state }, deliveryLabels[state] || state)
}

function resultText(status) {
  return status === 0 ? 'no response' : 'HTTP ' + status
}

// result_status is 0 both for "no answer" and before the first attempt; the state tells them apart.
function latestResult(event) {
  if (event.delivery_status === 'none') return 'nothing to deliver'
  if (event.delivery_status === 'pending' && event.result_status === 0) return 'not attempted yet'
  return resultText(event.result_status)
}

function failureExplanation(code, description) {
  const info = catalogue.errorCodes[code]
  if (!info) {
    return h('span', { class: 'failure' }, h('code', null, code), ' ', description || '', ' (not a catalogue code)')
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
    info.retryable ? ': a later identical attempt may succeed.' : ': retrying unchanged will not help.',
  )
}

const objectKinds = ['charge', 'instrument', 'payment', 'refund', 'reversal', 'dispute', 'settlement']

// The snapshot of the object the event is about, as it stood when the event happened.
function subjectOf(event) {
  for (const kind of objectKinds) {
    const object = event[kind]
    if (object && object.id === event.object_id) return { kind, object }
  }
  return undefined
}

function eventAmount(event) {
  const subject = subjectOf(event)?.object
  const object = subject && subject.amount !== undefined ? subject : event.charge
  if (!object) return ''
  return money(object.amount, object.currency || event.charge?.currency)
}

function metadataText(metadata) {
  return Object.entries(metadata ?? {})
    .map(([key, value]) => key + '=' + value)
    .join(', ')
}

function eventHref(id) {
  return '/dashboard/events/' + encodeURIComponent(id)
}

function chargeHref(id) {
  return '/dashboard/charges/' + encodeURIComponent(id)
}

// Runs tick every pollIntervalMs while the tab is visible; returns the function that stops it.
function poll(tick) {
  let timer
  let stopped = false
  const run = async () => {
    if (stopped) return
    if (document.visibilityState === 'visible') {
      try {
        await tick()
        liveBadge.textContent = 'Live'
        liveBadge.classList.remove('live-error')
      } catch (error) {
        liveBadge.textContent = 'Updates paused: ' + error.message
        liveBadge.classList.add('live-error')
      }
    }
    if (!stopped) timer = setTimeout(run, pollIntervalMs)
  }
  timer = setTimeout(run, pollIntervalMs)
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}
`
