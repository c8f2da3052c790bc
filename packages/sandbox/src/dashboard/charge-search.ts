import { type Charge, compareAmounts, type Dispute } from '@chargekit/schemas'
import { sumMinor, toAmount } from '../lifecycle/money'
import type { InstrumentRecord, PageRequest, PaymentRecord } from '../storage/records'
import type { ChargeRow, ChargeStatus, Failure } from './browser/data-shapes'
import type { DashboardStore } from './dashboard-options'

/** The charges list's filters; every one optional, all of them must match. */
export interface ChargeFilters {
  status?: ChargeStatus | undefined
  chargeType?: string | undefined
  currency?: string | undefined
  /** Decimal text, compared exactly with the charge's amount. */
  amountGte?: string | undefined
  amountLte?: string | undefined
  metadata?: Readonly<Record<string, string>> | undefined
}

/**
 * How many of the newest charges one search reads. A status is derived from each charge's
 * objects (three indexed reads), so the bound keeps a search of a busy PostgreSQL-backed sandbox
 * within a second or so; the answer says when older charges were left out.
 */
export const maxChargesSearched = 1_000

/** A charge with the objects its status is derived from. */
interface ChargeObjects {
  charge: Charge
  instruments: readonly InstrumentRecord[]
  payments: readonly PaymentRecord[]
  disputes: readonly Dispute[]
}

/** The account's charges that match `filters`, newest first, one page of them as list rows. */
export async function searchCharges(
  store: DashboardStore,
  accountId: string,
  filters: ChargeFilters,
  page: PageRequest,
): Promise<{ items: ChargeRow[]; total: number; scanned: number; truncated: boolean }> {
  const newest = await store.listObjects(
    accountId,
    'charge',
    filters.metadata === undefined ? {} : { metadata: filters.metadata },
    { offset: 0, limit: maxChargesSearched },
  )
  const candidates = newest.items.filter((charge) => matchesChargeFields(charge, filters))
  const objectsOf = (charge: Charge) => chargeObjects(store, accountId, charge)
  let matching: (Charge | ChargeObjects)[] = candidates
  if (filters.status !== undefined) {
    // Read one after the other: a single-connection database gains nothing from many at once.
    const withObjects: ChargeObjects[] = []
    for (const charge of candidates) withObjects.push(await objectsOf(charge))
    matching = withObjects.filter((objects) => chargeStatusOf(objects) === filters.status)
  }
  const onPage = matching.slice(page.offset, page.offset + page.limit)
  const items: ChargeRow[] = []
  for (const entry of onPage) {
    items.push(chargeRow('charge' in entry ? entry : await objectsOf(entry)))
  }
  return {
    items,
    total: matching.length,
    scanned: newest.items.length,
    truncated: newest.total > newest.items.length,
  }
}

function matchesChargeFields(charge: Charge, filters: ChargeFilters): boolean {
  if (filters.chargeType !== undefined && charge.charge_type !== filters.chargeType) return false
  if (filters.currency !== undefined && charge.currency !== filters.currency) return false
  if (filters.amountGte !== undefined && compareAmounts(charge.amount, filters.amountGte) < 0) {
    return false
  }
  return !(filters.amountLte !== undefined && compareAmounts(charge.amount, filters.amountLte) > 0)
}

async function chargeObjects(
  store: DashboardStore,
  accountId: string,
  charge: Charge,
): Promise<ChargeObjects> {
  // A charge has a few of each (at most five declined instruments, then it fails).
  const all = { offset: 0, limit: 1_000 }
  const [instruments, payments, disputes] = await Promise.all([
    store.listObjects(accountId, 'instrument', { charge: charge.id }, all),
    store.listObjects(accountId, 'payment', { charge: charge.id }, all),
    store.listObjects(accountId, 'dispute', { charge: charge.id }, all),
  ])
  return {
    charge,
    instruments: instruments.items,
    payments: payments.items,
    disputes: disputes.items,
  }
}

/**
 * A charge's status, from the most decisive fact down (lists are newest first): a failed or
 * unconfirmed charge; a dispute that is open or lost; money captured (and how much of it came
 * back); a capture or an authorization in progress; and otherwise what became of the latest
 * instrument. A reversal leaves its instrument `invalid` without a code, which is how a cancel
 * is told from a decline.
 */
export function chargeStatusOf({
  charge,
  instruments,
  payments,
  disputes,
}: ChargeObjects): ChargeStatus {
  if (charge.failure_code !== null) return 'failed'
  if (!charge.confirmed) return 'unconfirmed'
  if (disputes.some((dispute) => dispute.status === 'open' || dispute.status === 'lost')) {
    return 'disputed'
  }
  const captured = payments.filter((payment) => payment.status === 'success')
  if (captured.length > 0) {
    const refunded = refundedMinor(captured, charge.currency)
    if (refunded === 0n) return 'paid'
    return refunded >= sumMinor(captured, charge.currency) ? 'refunded' : 'partially_refunded'
  }
  if (payments.some((payment) => payment.status === 'pending')) return 'pending'
  const [latest] = instruments
  if (instruments.some((instrument) => instrument.status === 'authorized')) return 'authorized'
  if (latest === undefined) return 'open'
  if (latest.status === 'pending') return 'pending'
  return latest.failure_code ? 'declined' : 'canceled'
}

function refundedMinor(payments: readonly PaymentRecord[], currency: string): bigint {
  return sumMinor(
    payments.map((payment) => ({ amount: payment.refunded_amount ?? 0 })),
    currency,
  )
}

/** The newest failure among the charge, its instruments and its payments. */
function latestFailure({ charge, instruments, payments }: ChargeObjects): Failure | null {
  if (charge.failure_code !== null) {
    return { code: charge.failure_code, description: charge.failure_description }
  }
  const failed = [...instruments, ...payments]
    .filter((object) => typeof object.failure_code === 'string')
    .sort((a, b) => b.created_at.localeCompare(a.created_at))[0]
  return failed === undefined
    ? null
    : { code: failed.failure_code as string, description: failed.failure_description ?? null }
}

function chargeRow(objects: ChargeObjects): ChargeRow {
  const { charge, instruments, payments } = objects
  const captured = payments.filter((payment) => payment.status === 'success')
  const params = instruments[0]?.params
  return {
    id: charge.id,
    created_at: charge.created_at,
    amount: charge.amount,
    currency: charge.currency,
    charge_type: charge.charge_type,
    charge_type_label: charge.charge_type_label,
    metadata: charge.metadata,
    events_url: charge.events_url,
    status: chargeStatusOf(objects),
    failure: latestFailure(objects),
    card: params?.last_4_digits
      ? { brand: params.brand ?? null, last_4_digits: params.last_4_digits }
      : null,
    captured_amount: toAmount(sumMinor(captured, charge.currency), charge.currency),
    refunded_amount: toAmount(refundedMinor(captured, charge.currency), charge.currency),
  }
}
