/**
 * The requests view. The account's recent API requests, newest first, each with the integration
 * warnings the sandbox recorded: what it read leniently (a trailing slash, a number sent as
 * text, an unknown field…) and what @chargekit/client would have sent instead.
 */
import { callApi, errorText, type List, type RecordedRequest } from './api'
import { errorMessage, h, main, replaceKeepingFocus } from './dom'
import { timeElement } from './format'
import { pageLinks } from './pagination'
import { poll } from './poll'

export function requestsView(url: URL): () => void {
  const params = new URLSearchParams(
    [...url.searchParams].filter(([key]) => key === 'page' || key === 'per_page'),
  )
  document.title = 'Requests · chargekit sandbox'
  const results = h(
    'div',
    { class: 'results', 'aria-busy': 'true' },
    h('p', null, 'Loading requests…'),
  )
  main.replaceChildren(
    h('h1', { tabindex: -1 }, 'Requests'),
    h(
      'p',
      { class: 'muted' },
      'Recent API requests of this account. Warnings name what the sandbox accepted as the production service does, and what @chargekit/client sends instead.',
    ),
    results,
  )
  let shown = ''
  const load = async () => {
    const list = await callApi<List<RecordedRequest>>(`/requests?${params}`)
    const signature = JSON.stringify(list)
    if (signature === shown) return
    shown = signature
    results.setAttribute('aria-busy', 'false')
    replaceKeepingFocus(
      results,
      requestsTable(list.collection),
      pageLinks(list.pagination, params, '/dashboard/requests', 'requests'),
    )
  }
  load().catch((error: unknown) => {
    results.setAttribute('aria-busy', 'false')
    results.replaceChildren(errorMessage(`Could not load requests: ${errorText(error)}`))
  })
  return poll(load)
}

function requestsTable(requests: RecordedRequest[]): HTMLElement {
  if (requests.length === 0) return h('p', { class: 'empty' }, 'No API requests yet.')
  const headings = ['Time', 'Request', 'Status', 'Warnings']
  return h(
    'table',
    { class: 'requests' },
    h('caption', { class: 'visually-hidden' }, 'API requests, newest first'),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        headings.map((label) => h('th', { scope: 'col' }, label)),
      ),
    ),
    h('tbody', null, requests.map(requestRow)),
  )
}

function requestRow(request: RecordedRequest): HTMLElement {
  const count = request.warnings.length + request.warnings_omitted
  return h(
    'tr',
    { 'data-request-id': request.id },
    h('td', { 'data-label': 'Time' }, timeElement(request.created_at)),
    h(
      'td',
      { 'data-label': 'Request' },
      h('code', null, `${request.method} ${request.path}`),
      h('small', null, request.id),
    ),
    h(
      'td',
      { 'data-label': 'Status' },
      h(
        'span',
        { class: `badge ${request.status < 400 ? 'badge-delivered' : 'badge-failing'}` },
        String(request.status),
      ),
    ),
    h(
      'td',
      { 'data-label': 'Warnings' },
      count === 0
        ? h('span', { class: 'muted' }, 'None')
        : h(
            'ul',
            { class: 'warnings', 'aria-label': count === 1 ? '1 warning' : `${count} warnings` },
            request.warnings.map(warningItem),
            request.warnings_omitted > 0
              ? h('li', null, `${request.warnings_omitted} more not listed`)
              : null,
          ),
    ),
  )
}

function warningItem(warning: RecordedRequest['warnings'][number]): HTMLElement {
  return h(
    'li',
    { 'data-code': warning.code },
    h('code', null, warning.code),
    ' ',
    warning.message,
    h('small', null, '@chargekit/client sends: ', h('code', null, warning.instead)),
  )
}
