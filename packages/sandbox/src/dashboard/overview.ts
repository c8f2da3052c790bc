import { toMinorUnits } from '@chargekit/schemas'
import { toAmount } from '../lifecycle/money'
import type { StoredEvent } from '../storage/records'
import type { InsightRange, OverviewAnswer } from './browser/data-shapes'
import type { DashboardStore } from './dashboard-options'
import { bucketsFor } from './time-window'

/**
 * The events of a failed step, each naming the object that failed. An `instrument.invalid`
 * without a failure code is an instrument the merchant invalidated or reversed, not a decline.
 */
const failureEvents = {
  'charge.error': 'charge',
  'instrument.invalid': 'instrument',
  'payment.error': 'payment',
  'refund.error': 'refund',
  'reversal.error': 'reversal',
} as const

/**
 * How many events one overview reads at most: one indexed read of the window's newest events of
 * the types it counts. A window holding more is drawn from its newest part, and says so.
 */
export const maxOverviewEvents = 20_000

/**
 * The account's activity in `range`: charges created, the volume of successful payments per
 * currency (summed exactly, in minor units) and failed steps by failure code, per bucket.
 */
export async function buildOverview(
  store: DashboardStore,
  accountId: string,
  range: InsightRange,
  now: Date,
): Promise<OverviewAnswer> {
  const buckets = bucketsFor(range, now)
  const size = buckets.window.buckets.length
  const { items, total } = await store.listEvents(
    accountId,
    {
      types: new Set(['charge.created', 'payment.success', ...Object.keys(failureEvents)]),
      createdGte: buckets.window.from,
    },
    { offset: 0, limit: maxOverviewEvents },
  )

  const charges = new Array<number>(size).fill(0)
  const volume = new Map<string, { minor: bigint[]; counts: number[] }>()
  const declines = new Map<string, Record<string, number>>()
  for (const event of items) {
    const index = buckets.indexOf(event.created_at)
    if (index === undefined) continue
    if (event.type === 'charge.created') {
      charges[index] = (charges[index] ?? 0) + 1
    } else if (event.type === 'payment.success' && event.payment !== null) {
      const { amount, currency } = event.payment
      let series = volume.get(currency)
      if (series === undefined) {
        series = {
          minor: new Array<bigint>(size).fill(0n),
          counts: new Array<number>(size).fill(0),
        }
        volume.set(currency, series)
      }
      series.minor[index] = (series.minor[index] ?? 0n) + toMinorUnits(amount, currency)
      series.counts[index] = (series.counts[index] ?? 0) + 1
    } else {
      const failed = failedObject(event)
      if (failed === undefined) continue
      const steps = declines.get(failed.code) ?? {}
      steps[failed.step] = (steps[failed.step] ?? 0) + 1
      declines.set(failed.code, steps)
    }
  }

  return {
    ...buckets.window,
    charges: { total: charges.reduce((sum, count) => sum + count, 0), counts: charges },
    volume: [...volume]
      .map(([currency, series]) => {
        const totalMinor = series.minor.reduce((sum, minor) => sum + minor, 0n)
        return {
          currency,
          totalMinor,
          total: toAmount(totalMinor, currency),
          count: series.counts.reduce((sum, count) => sum + count, 0),
          amounts: series.minor.map((minor) => toAmount(minor, currency)),
          counts: series.counts,
        }
      })
      .sort((a, b) => (a.totalMinor === b.totalMinor ? 0 : a.totalMinor > b.totalMinor ? -1 : 1))
      .map(({ totalMinor: _totalMinor, ...series }) => series),
    declines: [...declines]
      .map(([code, steps]) => ({
        code,
        count: Object.values(steps).reduce((sum, count) => sum + count, 0),
        steps,
      }))
      .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
    events_read: items.length,
    truncated: total > items.length,
  }
}

function failedObject(event: StoredEvent): { step: string; code: string } | undefined {
  const step = failureEvents[event.type as keyof typeof failureEvents]
  if (step === undefined) return undefined
  const code = (event[step] as { failure_code?: string | null } | null)?.failure_code
  return typeof code === 'string' ? { step, code } : undefined
}
