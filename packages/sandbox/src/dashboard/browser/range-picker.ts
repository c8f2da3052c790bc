import { type InsightRange, insightRanges } from './data-shapes'
import { h } from './dom'

/** The range in the URL's `range`, or the default (the last hour: a sandbox's busiest). */
export function rangeOf(url: URL): InsightRange {
  const range = url.searchParams.get('range')
  return range !== null && Object.hasOwn(insightRanges, range) ? (range as InsightRange) : '1h'
}

/** Links to the same view over each range; the current one marked. */
export function rangePicker(current: InsightRange, hrefFor: (range: InsightRange) => string) {
  return h(
    'nav',
    { class: 'ranges', 'aria-label': 'Period' },
    (Object.keys(insightRanges) as InsightRange[]).map((range) =>
      h(
        'a',
        { href: hrefFor(range), 'aria-current': range === current ? 'page' : null },
        insightRanges[range].label,
      ),
    ),
  )
}
