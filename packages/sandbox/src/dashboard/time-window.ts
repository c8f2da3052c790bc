import { type InsightRange, insightRanges, type TimeWindow } from './browser/data-shapes'

/** A window's buckets as numbers, for the aggregations that fill them. */
export interface Buckets {
  window: TimeWindow
  /** The bucket an instant falls in, or undefined outside the window. */
  indexOf(iso: string): number | undefined
}

/**
 * The window `range` ending with the bucket that holds `now`. Buckets start on whole multiples
 * of their width since the epoch, so two requests a moment apart draw the same buckets.
 */
export function bucketsFor(range: InsightRange, now: Date): Buckets {
  const { bucketMs, buckets } = insightRanges[range]
  const end = (Math.floor(now.getTime() / bucketMs) + 1) * bucketMs
  const start = end - buckets * bucketMs
  return {
    window: {
      range,
      from: new Date(start).toISOString(),
      to: new Date(end).toISOString(),
      bucket_ms: bucketMs,
      buckets: Array.from({ length: buckets }, (_, index) =>
        new Date(start + index * bucketMs).toISOString(),
      ),
    },
    indexOf(iso) {
      const time = Date.parse(iso)
      if (!(time >= start && time < end)) return undefined
      return Math.floor((time - start) / bucketMs)
    },
  }
}

/** The nearest-rank percentile of `sorted` (ascending), or null for none. */
export function percentile(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null
  const rank = Math.max(1, Math.ceil(fraction * sorted.length))
  return sorted[rank - 1] ?? null
}
