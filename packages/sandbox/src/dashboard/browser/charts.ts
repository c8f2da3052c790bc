/**
 * The dashboard's charts, drawn as plain SVG elements. A charting library would bring a canvas
 * (nothing for a screen reader or a test to read), a stylesheet of its own, or tens of kilobytes
 * for three shapes; these are columns over time, lines over time and a ranked list, each with
 * its numbers on every mark (`data-value`, a tooltip) and in a table beside it.
 */
import { h } from './dom'

const svgNamespace = 'http://www.w3.org/2000/svg'

function svg<Tag extends keyof SVGElementTagNameMap>(
  tag: Tag,
  attributes: Record<string, string | number | undefined>,
  ...children: (Node | string | null)[]
): SVGElementTagNameMap[Tag] {
  const element = document.createElementNS(svgNamespace, tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined) element.setAttribute(name, String(value))
  }
  for (const child of children) if (child !== null) element.append(child)
  return element
}

/** One series of a chart: a value per bucket (null where there is nothing to draw). */
export interface Series {
  name: string
  /** Colour class from the stylesheet: `series-ok`, `series-bad`, `series-accent`, `series-warn`. */
  className: string
  values: readonly (number | null)[]
}

export interface TimeChartOptions {
  title: string
  /** Each bucket's start, ISO 8601, oldest first. */
  buckets: readonly string[]
  bucketMs: number
  series: readonly Series[]
  /** How a value reads on the axis, in tooltips and in the table. */
  format: (value: number) => string
  /** The largest value the axis must show, such as 1 for a rate. */
  fixedMax?: number
}

const height = 180
const margin = { top: 10, right: 10, bottom: 22, left: 56 }

/** Columns over time; the series of one bucket stack on each other. */
export function columnChart(options: TimeChartOptions): HTMLElement {
  const frame = chartFrame(options, (bucket) =>
    options.series.reduce((sum, series) => sum + (series.values[bucket] ?? 0), 0),
  )
  const { x, y, step, plot } = frame
  const barWidth = Math.max(1, step * 0.75)
  options.buckets.forEach((start, bucket) => {
    let base = 0
    const marks = options.series.flatMap((series) => {
      const value = series.values[bucket] ?? 0
      if (value === 0) return []
      const top = y(base + value)
      const mark = svg(
        'rect',
        {
          class: `mark ${series.className}`,
          x: x(bucket) + (step - barWidth) / 2,
          y: top,
          width: barWidth,
          height: Math.max(1, y(base) - top),
          'data-series': series.name,
          'data-value': value,
        },
        svg(
          'title',
          {},
          `${timeLabel(start, options.bucketMs)}: ${options.format(value)} ${series.name}`,
        ),
      )
      base += value
      return [mark]
    })
    if (marks.length > 0) plot.append(svg('g', { class: 'bucket', 'data-start': start }, ...marks))
  })
  return chartFigure(options, frame.element)
}

/**
 * Lines over time, one per series. A bucket without a value (no attempt, say) has no point; the
 * line goes on from the previous point to the next, as a rate or a duration has no zero there.
 */
export function lineChart(options: TimeChartOptions): HTMLElement {
  const frame = chartFrame(options, (bucket) =>
    Math.max(0, ...options.series.map((series) => series.values[bucket] ?? 0)),
  )
  const { x, y, step, plot } = frame
  for (const series of options.series) {
    const points: string[] = []
    const marks: SVGElement[] = []
    options.buckets.forEach((start, bucket) => {
      const value = series.values[bucket]
      if (value === null || value === undefined) return
      const cx = x(bucket) + step / 2
      points.push(`${cx},${y(value)}`)
      marks.push(
        svg(
          'circle',
          { class: 'mark', cx, cy: y(value), r: 3, 'data-start': start, 'data-value': value },
          svg(
            'title',
            {},
            `${timeLabel(start, options.bucketMs)}: ${options.format(value)} ${series.name}`,
          ),
        ),
      )
    })
    plot.append(
      svg(
        'g',
        { class: `line ${series.className}`, 'data-series': series.name },
        points.length > 1 ? svg('polyline', { points: points.join(' ') }) : null,
        ...marks,
      ),
    )
  }
  return chartFigure(options, frame.element)
}

/**
 * The width to draw at: the chart's box as the stylesheet lays it out (two charts a row from
 * 64rem, one otherwise), so the SVG's text is drawn at its real size rather than scaled.
 */
function chartWidth(): number {
  const mainWidth = document.getElementById('main')?.clientWidth ?? 720
  const columns = window.matchMedia('(min-width: 64rem)').matches ? 2 : 1
  // main's padding (2rem), the gap between columns (1rem) and each box's padding and border.
  const boxWidth = (mainWidth - 32 - (columns - 1) * 16) / columns - 32
  return Math.max(280, Math.round(boxWidth))
}

/** The axes and scales shared by both time charts, sized to the page's current width. */
function chartFrame(options: TimeChartOptions, totalAt: (bucket: number) => number) {
  const width = chartWidth()
  const innerWidth = width - margin.left - margin.right
  const innerHeight = height - margin.top - margin.bottom
  const largest = Math.max(
    options.fixedMax ?? 0,
    ...options.buckets.map((_, bucket) => totalAt(bucket)),
  )
  const max = niceCeiling(largest)
  const step = innerWidth / Math.max(1, options.buckets.length)
  const x = (bucket: number) => margin.left + bucket * step
  const y = (value: number) => margin.top + innerHeight - (value / max) * innerHeight
  const plot = svg('g', { class: 'plot' })
  const axis = svg('g', { class: 'axis' })
  for (const tick of [0, max / 2, max]) {
    axis.append(
      svg('line', {
        class: 'grid',
        x1: margin.left,
        x2: width - margin.right,
        y1: y(tick),
        y2: y(tick),
      }),
      svg(
        'text',
        { x: margin.left - 6, y: y(tick) + 4, 'text-anchor': 'end' },
        options.format(tick),
      ),
    )
  }
  const labelEvery = Math.max(
    1,
    Math.ceil(options.buckets.length / Math.max(2, Math.floor(innerWidth / 90))),
  )
  options.buckets.forEach((start, bucket) => {
    if (bucket % labelEvery !== 0) return
    axis.append(
      svg(
        'text',
        { x: x(bucket), y: height - 6, 'text-anchor': 'start' },
        timeLabel(start, options.bucketMs, true),
      ),
    )
  })
  const element = svg(
    'svg',
    {
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: 'img',
      'aria-label': `${options.title}: ${summary(options)}`,
    },
    axis,
    plot,
  )
  return { element, x, y, step, plot }
}

/** The chart with its title, legend, and its numbers as a table for those who cannot see it. */
function chartFigure(options: TimeChartOptions, chart: SVGSVGElement): HTMLElement {
  const rows = options.buckets.flatMap((start, bucket) =>
    options.series.every((series) => series.values[bucket] === null || !series.values[bucket])
      ? []
      : [
          h(
            'tr',
            null,
            h('td', null, timeLabel(start, options.bucketMs)),
            options.series.map((series) => {
              const value = series.values[bucket]
              return h(
                'td',
                null,
                value === null || value === undefined ? '—' : options.format(value),
              )
            }),
          ),
        ],
  )
  return h(
    'figure',
    { class: 'chart' },
    h('figcaption', null, options.title),
    options.series.length > 1
      ? h(
          'ul',
          { class: 'legend' },
          options.series.map((series) =>
            h(
              'li',
              { class: `legend-item ${series.className}` },
              h('span', { class: 'swatch' }),
              series.name,
            ),
          ),
        )
      : null,
    h('div', { class: 'chart-box' }, chart),
    h(
      'details',
      { class: 'chart-data' },
      h('summary', null, 'Show the numbers'),
      rows.length === 0
        ? h('p', { class: 'muted' }, 'Nothing in this period.')
        : h(
            'table',
            null,
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                h('th', { scope: 'col' }, 'From'),
                options.series.map((series) => h('th', { scope: 'col' }, series.name)),
              ),
            ),
            h('tbody', null, rows),
          ),
    ),
  )
}

function summary(options: TimeChartOptions): string {
  return options.series
    .map((series) => {
      const values = series.values.filter((value): value is number => value !== null)
      if (values.length === 0) return `${series.name}: none`
      return `${series.name}: highest ${options.format(Math.max(...values))}`
    })
    .join('; ')
}

/** One entry of a ranked list: a label, a count and how it splits. */
export interface RankedItem {
  label: Node | string
  detail?: string
  value: number
}

/** A ranked list with a bar per entry, as wide as its share of the largest. */
export function rankedBars(title: string, items: readonly RankedItem[], unit: string): HTMLElement {
  const largest = Math.max(1, ...items.map((item) => item.value))
  return h(
    'figure',
    { class: 'chart ranked' },
    h('figcaption', null, title),
    items.length === 0
      ? h('p', { class: 'muted' }, 'Nothing in this period.')
      : h(
          'ol',
          null,
          items.map((item) =>
            h(
              'li',
              { class: 'ranked-item', 'data-value': item.value },
              h('span', { class: 'ranked-label' }, item.label),
              h('span', { class: 'ranked-count' }, `${item.value} ${unit}`),
              svg(
                'svg',
                {
                  class: 'ranked-bar',
                  viewBox: '0 0 100 8',
                  preserveAspectRatio: 'none',
                  'aria-hidden': 'true',
                },
                svg('rect', { x: 0, y: 0, height: 8, width: (item.value / largest) * 100 }),
              ),
              item.detail ? h('small', null, item.detail) : null,
            ),
          ),
        ),
  )
}

/** 0 → 1; otherwise the next of 1, 2, 2.5, 5 × 10ⁿ at or above `value`. */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 1
  const power = 10 ** Math.floor(Math.log10(value))
  const nice = [1, 2, 2.5, 5, 10].find((factor) => factor * power >= value) ?? 10
  return nice * power
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' })
const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' })
const dayTimeFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
})

/** A bucket's start: its date for whole days; else its time, with the date where space allows. */
function timeLabel(iso: string, bucketMs: number, onAxis = false): string {
  const date = new Date(iso)
  if (bucketMs >= 86_400_000) return dayFormat.format(date)
  return onAxis && bucketMs < 4 * 3_600_000 ? timeFormat.format(date) : dayTimeFormat.format(date)
}
