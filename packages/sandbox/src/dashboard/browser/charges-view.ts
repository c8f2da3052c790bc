/**
 * The charges list: every charge of the account with where it stands, newest first, filtered by
 * status, charge type, currency, amount and metadata; each links to its timeline. The filters
 * live in the URL's query, so a search can be shared and reloaded.
 */
import { callApi, errorText, readData } from './api'
import { catalogue } from './catalogue'
import { type ChargeRow, type ChargeSearchAnswer, chargeStatuses } from './data-shapes'
import { errorMessage, h, main, replaceKeepingFocus } from './dom'
import { field, filterPanel } from './filter-panel'
import { chargeHref, metadataText, money, timeElement } from './format'
import { pageLinks } from './pagination'
import { poll } from './poll'
import { navigate } from './router'

const textFilters = ['status', 'charge_type', 'currency', 'amount_gte', 'amount_lte'] as const

function isSearchParameter(key: string): boolean {
  return (
    (textFilters as readonly string[]).includes(key) ||
    key === 'page' ||
    key === 'per_page' ||
    /^metadata\[[^\]]+\]$/.test(key)
  )
}

const statusLabels: Record<string, string> = Object.fromEntries(
  chargeStatuses.map(([status, label]) => [status, label]),
)

export function chargesView(url: URL): () => void {
  const params = new URLSearchParams(
    [...url.searchParams].filter(([key]) => isSearchParameter(key)),
  )
  document.title = 'Charges · chargekit sandbox'
  const results = h(
    'div',
    { class: 'results', 'aria-busy': 'true' },
    h('p', null, 'Loading charges…'),
  )
  main.replaceChildren(
    h('h1', { tabindex: -1 }, 'Charges'),
    filterPanel(
      [...params.keys()].filter((key) => key !== 'page' && key !== 'per_page').length,
      filterForm(params),
    ),
    results,
  )
  let shown = ''
  const load = async () => {
    const answer = await readData<ChargeSearchAnswer>(`/charges?${params}`)
    const signature = JSON.stringify(answer)
    if (signature === shown) return
    shown = signature
    results.setAttribute('aria-busy', 'false')
    replaceKeepingFocus(
      results,
      chargesTable(answer.collection),
      pageLinks(answer.pagination, params, '/dashboard/charges', 'charges'),
      h(
        'p',
        { class: 'muted', hidden: !answer.truncated },
        `Searched the newest ${answer.scanned} charges; older ones are left out of this list.`,
      ),
    )
  }
  load().catch((error: unknown) => {
    results.setAttribute('aria-busy', 'false')
    results.replaceChildren(errorMessage(`Could not load charges: ${errorText(error)}`))
  })
  return poll(load)
}

function chargesTable(charges: readonly ChargeRow[]): HTMLElement {
  if (charges.length === 0) return h('p', { class: 'empty' }, 'No charges match these filters.')
  return h(
    'table',
    { class: 'charges' },
    h('caption', { class: 'visually-hidden' }, 'Charges, newest first'),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        ['Created', 'Charge', 'Amount', 'Type', 'Status', 'Payment'].map((label) =>
          h('th', { scope: 'col' }, label),
        ),
      ),
    ),
    h('tbody', null, charges.map(chargeRow)),
  )
}

function chargeRow(charge: ChargeRow): HTMLElement {
  return h(
    'tr',
    { 'data-charge-id': charge.id, 'data-status': charge.status },
    h('td', { 'data-label': 'Created' }, timeElement(charge.created_at)),
    h(
      'td',
      { 'data-label': 'Charge' },
      h('a', { href: chargeHref(charge.id) }, h('code', null, charge.id)),
      h('small', { class: 'metadata' }, metadataText(charge.metadata)),
    ),
    h('td', { 'data-label': 'Amount', class: 'amount' }, money(charge.amount, charge.currency)),
    h(
      'td',
      { 'data-label': 'Type' },
      charge.charge_type_label || charge.charge_type,
      h('small', null, charge.charge_type),
    ),
    h(
      'td',
      { 'data-label': 'Status' },
      h(
        'span',
        { class: `badge status-${charge.status}` },
        statusLabels[charge.status] ?? charge.status,
      ),
      charge.failure && ['declined', 'failed', 'authorized'].includes(charge.status)
        ? h(
            'small',
            { class: 'failure', title: charge.failure.description ?? '' },
            h('code', null, charge.failure.code),
            ' ',
            catalogue.errorCodes[charge.failure.code]?.designation ?? charge.failure.description,
          )
        : null,
    ),
    h(
      'td',
      { 'data-label': 'Payment' },
      charge.card
        ? h(
            'span',
            { class: 'card-line' },
            `${charge.card.brand ?? 'Card'} •••• ${charge.card.last_4_digits}`,
          )
        : null,
      charge.captured_amount > 0
        ? h('small', null, `captured ${money(charge.captured_amount, charge.currency)}`)
        : null,
      charge.refunded_amount > 0
        ? h('small', null, `refunded ${money(charge.refunded_amount, charge.currency)}`)
        : null,
    ),
  )
}

function input(name: string, params: URLSearchParams, attributes: Record<string, string> = {}) {
  return h('input', {
    name,
    value: params.get(name) ?? '',
    spellcheck: 'false',
    autocomplete: 'off',
    ...attributes,
  })
}

function filterForm(params: URLSearchParams): HTMLFormElement {
  const status = h(
    'select',
    { name: 'status' },
    h('option', { value: '' }, 'Any'),
    chargeStatuses.map(([value, label, meaning]) =>
      h('option', { value, selected: params.get('status') === value, title: meaning }, label),
    ),
  )
  const chargeType = params.get('charge_type') ?? ''
  const types = h(
    'select',
    { name: 'charge_type' },
    h('option', { value: '' }, 'Any'),
    chargeType ? h('option', { value: chargeType, selected: true }, chargeType) : null,
  )
  // The account's charge types, as the API lists them; the filter works without them.
  callApi<{ collection: { id: string; label: string }[] }>('/charges/types').then(
    ({ collection }) =>
      types.replaceChildren(
        h('option', { value: '' }, 'Any'),
        ...collection.map((type) =>
          h('option', { value: type.id, selected: type.id === chargeType }, type.label),
        ),
      ),
    () => {},
  )
  const [metadataKey = '', metadataValue = ''] =
    [...params]
      .filter(([key]) => key.startsWith('metadata['))
      .map(([key, value]) => [key.slice(9, -1), value])[0] ?? []
  const decimal = { inputmode: 'decimal', pattern: '\\d+(\\.\\d+)?', placeholder: '0.00' }
  const form = h(
    'form',
    {
      class: 'filters',
      role: 'search',
      'aria-label': 'Filter charges',
      action: '/dashboard/charges',
      method: 'get',
    },
    h(
      'div',
      { class: 'field-grid' },
      field('Status', status),
      field('Type', types),
      field('Currency', input('currency', params, { maxlength: '3', placeholder: 'EUR' })),
      field('Amount from', input('amount_gte', params, decimal)),
      field('Amount up to', input('amount_lte', params, decimal)),
      field(
        'Metadata key',
        h('input', { name: 'metadata_key', value: metadataKey, spellcheck: 'false' }),
      ),
      field(
        'Metadata value',
        h('input', { name: 'metadata_value', value: metadataValue, spellcheck: 'false' }),
      ),
    ),
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit' }, 'Apply filters'),
      h('a', { class: 'button secondary', href: '/dashboard/charges' }, 'Clear'),
    ),
  )
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const data = new FormData(form)
    const query = new URLSearchParams()
    for (const key of textFilters) {
      const value = String(data.get(key) ?? '').trim()
      if (value) query.set(key, key === 'currency' ? value.toUpperCase() : value)
    }
    const key = String(data.get('metadata_key') ?? '').trim()
    if (key) query.set(`metadata[${key}]`, String(data.get('metadata_value') ?? ''))
    const perPage = params.get('per_page')
    if (perPage !== null) query.set('per_page', perPage)
    const search = query.toString()
    navigate(search ? `/dashboard/charges?${search}` : '/dashboard/charges')
  })
  return form
}
