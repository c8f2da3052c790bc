/**
 * The overview: the account's activity over a chosen period — charges created, the volume
 * captured per currency, the failed steps by failure code — and how each events URL is doing.
 */
import { errorText, readData } from './api'
import { catalogue } from './catalogue'
import { columnChart, rankedBars } from './charts'
import type { OverviewAnswer, ReceiversAnswer } from './data-shapes'
import { receiversTable } from './deliveries-view'
import { errorMessage, h, main, replaceKeepingFocus } from './dom'
import { money } from './format'
import { poll } from './poll'
import { rangeOf, rangePicker } from './range-picker'

/** Currencies drawn as charts of their own; the rest are in the totals. */
const chartedCurrencies = 3

export function overviewView(url: URL): () => void {
  const range = rangeOf(url)
  document.title = 'Overview · chargekit sandbox'
  const body = h('div', { class: 'results', 'aria-busy': 'true' }, h('p', null, 'Loading…'))
  main.replaceChildren(
    h('h1', { tabindex: -1 }, 'Overview'),
    rangePicker(range, (each) => `/dashboard/overview?range=${each}`),
    body,
  )
  let shown = ''
  const load = async () => {
    const [overview, receivers] = await Promise.all([
      readData<OverviewAnswer>(`/overview?range=${range}`),
      readData<ReceiversAnswer>('/deliveries'),
    ])
    const signature = JSON.stringify([overview, receivers])
    if (signature === shown) return
    shown = signature
    body.setAttribute('aria-busy', 'false')
    replaceKeepingFocus(body, ...overviewSections(overview, receivers))
  }
  load().catch((error: unknown) => {
    body.setAttribute('aria-busy', 'false')
    body.replaceChildren(errorMessage(`Could not load the overview: ${errorText(error)}`))
  })
  return poll(load)
}

function overviewSections(overview: OverviewAnswer, receivers: ReceiversAnswer): HTMLElement[] {
  const declined = overview.declines.reduce((sum, entry) => sum + entry.count, 0)
  const chart = {
    buckets: overview.buckets,
    bucketMs: overview.bucket_ms,
  }
  return [
    h(
      'dl',
      { class: 'tiles' },
      tile('Charges created', String(overview.charges.total), '/dashboard/charges'),
      overview.volume.length === 0
        ? tile('Captured', '—')
        : overview.volume.map((series) =>
            tile(
              `Captured, ${series.currency}`,
              `${money(series.total, series.currency)} (${series.count})`,
              '/dashboard/charges?status=paid',
            ),
          ),
      tile('Failed steps', String(declined), '/dashboard/charges?status=declined'),
    ),
    h(
      'p',
      { class: 'muted', hidden: !overview.truncated },
      `This period holds more events than one overview reads: the charts show its newest ${overview.events_read}.`,
    ),
    h(
      'div',
      { class: 'charts' },
      overview.volume.slice(0, chartedCurrencies).map((series) =>
        columnChart({
          ...chart,
          title: `Volume captured, ${series.currency}`,
          series: [{ name: 'captured', className: 'series-ok', values: series.amounts }],
          format: (value) => money(value, series.currency),
        }),
      ),
      columnChart({
        ...chart,
        title: 'Charges created',
        series: [{ name: 'charges', className: 'series-accent', values: overview.charges.counts }],
        format: (value) => String(Math.round(value * 10) / 10),
      }),
      rankedBars(
        'Declines and failures by code',
        overview.declines.map((entry) => ({
          label: h(
            'span',
            null,
            h('code', null, entry.code),
            ' ',
            catalogue.errorCodes[entry.code]?.designation ?? 'not a catalogue code',
          ),
          detail: Object.entries(entry.steps)
            .map(([step, count]) => `${step} ${count}`)
            .join(' · '),
          value: entry.count,
        })),
        'failed',
      ),
    ),
    h(
      'section',
      { 'aria-labelledby': 'overview-deliveries' },
      h('h2', { id: 'overview-deliveries' }, 'Deliveries by events URL'),
      receiversTable(receivers.collection),
    ),
  ]
}

function tile(label: string, value: string, href?: string): HTMLElement {
  return h(
    'div',
    { class: 'tile' },
    h('dt', null, label),
    h('dd', null, href ? h('a', { href }, value) : value),
  )
}
