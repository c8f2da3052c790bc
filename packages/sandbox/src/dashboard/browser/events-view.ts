/**
 * The events view. The URL's query uses the API's own filter names (type, charge, object_id,
 * metadata[key], created_gte, created_lte, delivery_status, dismissed, result_status, page,
 * per_page), so the page passes it through and a shared link reproduces the same search.
 */
import { type ApiEvent, callApi, errorText, type List } from './api'
import { catalogue, type DashboardCatalogue } from './catalogue'
import { announce, errorMessage, h, main, replaceKeepingFocus } from './dom'
import { field, filterPanel } from './filter-panel'
import {
  chargeHref,
  deliveryBadge,
  eventAmount,
  eventHref,
  latestResult,
  metadataText,
  timeElement,
  typeLabel,
} from './format'
import { pageLinks } from './pagination'
import { poll } from './poll'
import { navigate } from './router'

const listParameters = [
  'type',
  'charge',
  'object_id',
  'created_gte',
  'created_lte',
  'delivery_status',
  'dismissed',
  'result_status',
  'page',
  'per_page',
]

function isListParameter(key: string): boolean {
  return listParameters.includes(key) || /^metadata\[[^\]]+\]$/.test(key)
}

function activeFilterCount(params: URLSearchParams): number {
  return [...params.keys()].filter(
    (key) => isListParameter(key) && key !== 'page' && key !== 'per_page',
  ).length
}

export function eventsView(url: URL): () => void {
  const params = new URLSearchParams([...url.searchParams].filter(([key]) => isListParameter(key)))
  document.title = 'Events · chargekit sandbox'
  const results = h(
    'div',
    { class: 'results', 'aria-busy': 'true' },
    h('p', null, 'Loading events…'),
  )
  main.replaceChildren(
    h('h1', { tabindex: -1 }, 'Events'),
    filterPanel(activeFilterCount(params), filterForm(params)),
    results,
  )

  let shown = ''
  let shownIds = new Set<string>()
  const load = async () => {
    const list = await callApi<List<ApiEvent>>(`/events?${params}`)
    const signature = JSON.stringify(list)
    if (signature === shown) return
    const newIds = new Set(
      shown === ''
        ? []
        : list.collection.map((event) => event.id).filter((id) => !shownIds.has(id)),
    )
    shown = signature
    shownIds = new Set(list.collection.map((event) => event.id))
    results.setAttribute('aria-busy', 'false')
    replaceKeepingFocus(
      results,
      eventsTable(list.collection, newIds),
      pageLinks(list.pagination, params, '/dashboard', 'events'),
    )
    if (newIds.size > 0) announce(newIds.size === 1 ? '1 new event' : `${newIds.size} new events`)
  }
  load().catch((error: unknown) => {
    results.setAttribute('aria-busy', 'false')
    results.replaceChildren(errorMessage(`Could not load events: ${errorText(error)}`))
  })
  return poll(load)
}

function eventsTable(events: ApiEvent[], newIds: Set<string>): HTMLElement {
  if (events.length === 0) return h('p', { class: 'empty' }, 'No events match these filters.')
  const headings = ['Created', 'Event', 'Object', 'Charge', 'Amount', 'Delivery']
  return h(
    'table',
    { class: 'events' },
    h('caption', { class: 'visually-hidden' }, 'Events, newest first'),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        headings.map((label) => h('th', { scope: 'col' }, label)),
      ),
    ),
    h(
      'tbody',
      null,
      events.map((event) => eventRow(event, newIds.has(event.id))),
    ),
  )
}

function eventRow(event: ApiEvent, isNew: boolean): HTMLElement {
  const chargeId = event.charge?.id
  return h(
    'tr',
    { class: isNew ? 'new' : undefined, 'data-event-id': event.id },
    h('td', { 'data-label': 'Created' }, timeElement(event.created_at)),
    h(
      'td',
      { 'data-label': 'Event' },
      h('a', { href: eventHref(event.id) }, typeLabel(event)),
      ' ',
      h('small', null, event.type),
      event.dismissed_at ? h('span', { class: 'badge badge-dismissed' }, 'Dismissed') : null,
    ),
    h('td', { 'data-label': 'Object' }, h('code', null, event.object_id)),
    h(
      'td',
      { 'data-label': 'Charge' },
      chargeId ? h('a', { href: chargeHref(chargeId) }, h('code', null, chargeId)) : '—',
      h('small', { class: 'metadata' }, metadataText(event.charge?.metadata)),
    ),
    h('td', { 'data-label': 'Amount', class: 'amount' }, eventAmount(event)),
    h(
      'td',
      { 'data-label': 'Delivery' },
      deliveryBadge(event),
      ' ',
      h('small', null, latestResult(event)),
    ),
  )
}

function select(name: string, value: string, options: [value: string, label: string][]) {
  return h(
    'select',
    { name },
    options.map(([optionValue, label]) =>
      h('option', { value: optionValue, selected: optionValue === value }, label),
    ),
  )
}

function filterForm(params: URLSearchParams): HTMLFormElement {
  const selectedTypes = new Set(params.getAll('type'))
  const families = new Map<string, DashboardCatalogue['eventTypes']>()
  for (const entry of catalogue.eventTypes) {
    families.set(entry.family, [...(families.get(entry.family) ?? []), entry])
  }
  const metadata: [key: string, value: string][] = [...params]
    .filter(([key]) => key.startsWith('metadata['))
    .map(([key, value]) => [key.slice(9, -1), value])
  if (metadata.length === 0) metadata.push(['', ''])
  const metadataRows = h('div', { class: 'metadata-rows' }, metadata.map(metadataRow))
  const addMetadataRow = () => {
    const row = metadataRow(['', ''])
    metadataRows.append(row)
    row.querySelector('input')?.focus()
  }

  const form = h(
    'form',
    {
      class: 'filters',
      role: 'search',
      'aria-label': 'Filter events',
      action: '/dashboard',
      method: 'get',
    },
    h(
      'details',
      { class: 'types' },
      h(
        'summary',
        null,
        selectedTypes.size > 0 ? `Types (${selectedTypes.size} selected)` : 'Types (all)',
      ),
      [...families].map(([family, entries]) =>
        h(
          'fieldset',
          null,
          h('legend', null, family),
          entries.map((entry) =>
            h(
              'label',
              { class: 'check' },
              h('input', {
                type: 'checkbox',
                name: 'type',
                value: entry.type,
                checked: selectedTypes.has(entry.type),
              }),
              ' ',
              entry.label,
            ),
          ),
        ),
      ),
    ),
    h(
      'div',
      { class: 'field-grid' },
      field(
        'Charge id',
        textInput({ id: 'filter-charge', name: 'charge', value: params.get('charge') ?? '' }),
        'Press / to jump here',
      ),
      field('Object id', textInput({ name: 'object_id', value: params.get('object_id') ?? '' })),
      field(
        'Created from',
        h('input', {
          type: 'datetime-local',
          step: 1,
          name: 'created_gte',
          value: localInputValue(params.get('created_gte')),
        }),
        'Your local time',
      ),
      field(
        'Created until',
        h('input', {
          type: 'datetime-local',
          step: 1,
          name: 'created_lte',
          value: localInputValue(params.get('created_lte')),
        }),
        'Your local time, to the end of that second',
      ),
      field(
        'Delivery',
        select('delivery_status', params.get('delivery_status') ?? '', [
          ['', 'Any'],
          ['delivered', 'Delivered'],
          ['failing', 'Failing (retrying)'],
          ['exhausted', 'Exhausted (retries used up)'],
          ['pending', 'Pending'],
          ['none', 'No delivery (no events_url)'],
        ]),
      ),
      field(
        'Dismissed',
        select('dismissed', params.get('dismissed') ?? '', [
          ['', 'Any'],
          ['false', 'Not dismissed'],
          ['true', 'Dismissed only'],
        ]),
      ),
      field(
        'Latest result',
        h('input', {
          type: 'number',
          name: 'result_status',
          min: 0,
          max: 999,
          step: 1,
          inputmode: 'numeric',
          value: params.get('result_status') ?? '',
        }),
        'HTTP status; 0 = no answer',
      ),
    ),
    h(
      'fieldset',
      { class: 'metadata' },
      h('legend', null, 'Charge metadata'),
      metadataRows,
      h(
        'button',
        { type: 'button', class: 'secondary', onclick: addMetadataRow },
        'Add metadata filter',
      ),
    ),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit' }, 'Apply filters'),
      h('a', { class: 'button secondary', href: '/dashboard' }, 'Clear'),
    ),
  )
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const query = queryFromForm(form, params).toString()
    navigate(query ? `/dashboard?${query}` : '/dashboard')
  })
  return form
}

/** A free-text input for ids and metadata: no spell checking, no autofill. */
function textInput(attributes: { id?: string; name: string; value: string }): HTMLInputElement {
  return h('input', { ...attributes, spellcheck: 'false', autocomplete: 'off' })
}

function metadataRow([key, value]: [key: string, value: string]): HTMLElement {
  return h(
    'div',
    { class: 'metadata-row' },
    field('Key', textInput({ name: 'metadata_key', value: key })),
    field('Value', textInput({ name: 'metadata_value', value })),
  )
}

function queryFromForm(form: HTMLFormElement, current: URLSearchParams): URLSearchParams {
  const data = new FormData(form)
  const query = new URLSearchParams()
  for (const type of data.getAll('type')) query.append('type', String(type))
  for (const key of ['charge', 'object_id', 'result_status']) {
    const value = String(data.get(key) ?? '').trim()
    if (value) query.set(key, value)
  }
  const values = data.getAll('metadata_value')
  data.getAll('metadata_key').forEach((key, index) => {
    const name = String(key).trim()
    if (name) query.append(`metadata[${name}]`, String(values[index] ?? ''))
  })
  for (const key of ['created_gte', 'created_lte']) {
    const input = form.elements.namedItem(key)
    if (input instanceof HTMLInputElement && input.value) {
      query.set(key, instantOf(input, key === 'created_lte'))
    }
  }
  for (const key of ['delivery_status', 'dismissed']) {
    const value = String(data.get(key) ?? '')
    if (value) query.set(key, value)
  }
  // A new search starts at page 1 but keeps the chosen page size.
  const perPage = current.get('per_page')
  if (perPage !== null) query.set('per_page', perPage)
  return query
}

/**
 * The ISO instant a datetime-local input names. "Until" means to the end of the input's smallest
 * unit (a second with step 1, else a minute), as the API compares to the millisecond.
 */
function instantOf(input: HTMLInputElement, untilEndOfUnit: boolean): string {
  const start = new Date(input.value).getTime()
  const unitMs = (Number(input.step) || 60) * 1000
  return new Date(untilEndOfUnit ? start + unitMs - 1 : start).toISOString()
}

/** datetime-local inputs take local wall-clock time; the URL holds the exact ISO instant. */
function localInputValue(iso: string | null): string {
  if (!iso) return ''
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return ''
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
}
