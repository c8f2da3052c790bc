import type { Charge, Payment, Refund, Settlement, SettlementTotal } from '@chargekit/schemas'
import { newId } from '../ids'
import { processorOf, type StepContext, withChargeLock } from './context'
import { sumMinor, toAmount } from './money'
import { allOf, mustGet } from './objects'

/** Which payments and refunds to settle; absent lists mean "everything settleable". */
export interface SettleSelection {
  payments?: readonly string[]
  refunds?: readonly string[]
}

/**
 * Settles successful, unsettled payments and refunds in one batch: `payment.settled`,
 * `refund.settled`, and `instrument.settled` the first time one of an instrument's payments
 * settles (once per instrument). Answers POST /v2/test/settlements (everything) and runs as the
 * acquirer's batch for processors with `settlementDelayMs` (just the object that succeeded).
 */
export async function settle(
  context: StepContext,
  selection: SettleSelection = {},
): Promise<Settlement> {
  const { deps, account } = context
  const payments = await settleable(context, 'payment', selection.payments)
  const refunds = await settleable(context, 'refund', selection.refunds)
  const instruments = await firstSettlements(context, payments)
  const settlement: Settlement = Object.freeze({
    id: newId('st'),
    created_at: deps.now().toISOString(),
    payments: payments.map((payment) => payment.id),
    refunds: refunds.map((refund) => refund.id),
    instruments,
    totals: totalsOf(payments, refunds),
  })
  await deps.store.putObject(account.id, 'settlement', settlement)
  const settledAt = settlement.created_at

  for (const payment of payments) {
    const chargeId = payment.charge ?? ''
    await withChargeLock(context, chargeId, async () => {
      const current = await mustGet(context, 'payment', payment.id)
      if (current.settled_at != null) return
      const settled: Payment = Object.freeze({ ...current, settled_at: settledAt })
      await deps.store.putObject(account.id, 'payment', settled)
      await deps.recordEvent(account.id, 'payment.settled', settled.id, {
        ...(await parentsOf(context, chargeId, settled.instrument)),
        payment: settled,
        settlement,
      })
    })
  }
  for (const refund of refunds) {
    const chargeId = refund.charge ?? ''
    await withChargeLock(context, chargeId, async () => {
      const current = await mustGet(context, 'refund', refund.id)
      if (current.settled_at != null) return
      const settled: Refund = Object.freeze({ ...current, settled_at: settledAt })
      await deps.store.putObject(account.id, 'refund', settled)
      const payment = await mustGet(context, 'payment', settled.payment ?? '')
      await deps.recordEvent(account.id, 'refund.settled', settled.id, {
        ...(await parentsOf(context, chargeId, payment.instrument)),
        payment,
        refund: settled,
        settlement,
      })
    })
  }
  for (const instrumentId of instruments) {
    const instrument = await mustGet(context, 'instrument', instrumentId)
    const chargeId = instrument.charge ?? ''
    await withChargeLock(context, chargeId, async () => {
      await deps.recordEvent(account.id, 'instrument.settled', instrumentId, {
        ...(await parentsOf(context, chargeId, instrumentId)),
        settlement,
      })
    })
  }
  return settlement
}

/** For processors with `settlementDelayMs`: settle these objects that much later. */
export function scheduleAutoSettlement(
  context: StepContext,
  charge: Charge,
  selection: SettleSelection,
): void {
  const delay = processorOf(context, charge).processor.settlementDelayMs
  if (delay === undefined) return
  context.deps.scheduler.after(delay, async () => {
    const payments = await settleable(context, 'payment', selection.payments ?? [])
    const refunds = await settleable(context, 'refund', selection.refunds ?? [])
    // The test helper may have settled them already; an empty batch would be noise.
    if (payments.length > 0 || refunds.length > 0) {
      await settle(context, {
        payments: selection.payments ?? [],
        refunds: selection.refunds ?? [],
      })
    }
  })
}

async function settleable<K extends 'payment' | 'refund'>(
  context: StepContext,
  kind: K,
  ids: readonly string[] | undefined,
) {
  const candidates =
    ids === undefined
      ? await allOf(context, kind, { status: 'succeeded', unsettled: true })
      : await Promise.all(ids.map((id) => mustGet(context, kind, id)))
  // Oldest first, so the batch lists objects in the order they happened.
  return candidates
    .filter((object) => object.status === 'succeeded' && object.settled_at == null)
    .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0))
}

/** Instruments of these payments that have never been settled before. */
async function firstSettlements(context: StepContext, payments: readonly Payment[]) {
  const instruments: string[] = []
  for (const payment of payments) {
    const id = payment.instrument
    if (id === undefined || instruments.includes(id)) continue
    const earlier = await context.deps.store.listEvents(
      context.account.id,
      { objectId: id, types: new Set(['instrument.settled']) },
      { offset: 0, limit: 0 },
    )
    if (earlier.total === 0) instruments.push(id)
  }
  return instruments
}

async function parentsOf(context: StepContext, chargeId: string, instrumentId: string | undefined) {
  return {
    charge: await mustGet(context, 'charge', chargeId),
    instrument:
      instrumentId === undefined ? null : await mustGet(context, 'instrument', instrumentId),
  }
}

/** Exact per-currency sums (minor units); net is negative when refunds exceed payments. */
function totalsOf(payments: readonly Payment[], refunds: readonly Refund[]): SettlementTotal[] {
  const currencies = [
    ...new Set([...payments, ...refunds].map((object) => object.currency ?? '')),
  ].sort()
  return currencies.map((currency) => {
    const paid = sumMinor(
      payments.filter((payment) => payment.currency === currency),
      currency,
    )
    const refunded = sumMinor(
      refunds.filter((refund) => refund.currency === currency),
      currency,
    )
    return {
      currency,
      payments_amount: toAmount(paid, currency),
      refunds_amount: toAmount(refunded, currency),
      net_amount: toAmount(paid - refunded, currency),
    }
  })
}
