// Settlements: the acquirer's batch that settles successful payments and refunds, on demand or
// scheduled after a movement succeeds.

import type { Charge, Settlement, SettlementTotal } from '@chargekit/schemas'
import { newId } from '../ids'
import type { PaymentRecord, RefundRecord } from '../storage/records'
import { atomically, processorOf, type StepContext, withChargeLock } from './context'
import type { LaterTask, LaterWork } from './later-tasks'
import { exactAmount, sumMinor, toAmount } from './money'
import { allOf, mustGet } from './objects'

/** Runs `task` while no other step of the charge runs. */
type ChargeLocking = <T>(chargeId: string, task: () => Promise<T>) => Promise<T>

const eachCharge =
  (context: StepContext): ChargeLocking =>
  (chargeId, task) =>
    withChargeLock(context, chargeId, task)

/** For a caller that holds every charge's lock already. */
const alreadyLocked: ChargeLocking = (_chargeId, task) => task()

function withChargeLocks<T>(
  context: StepContext,
  [first, ...rest]: readonly string[],
  task: () => Promise<T>,
): Promise<T> {
  return first === undefined
    ? task()
    : withChargeLock(context, first, () => withChargeLocks(context, rest, task))
}

/** What a settlement batch settled, as claimed under each charge's lock. */
interface Claimed {
  settledAt: string
  payments: PaymentRecord[]
  refunds: RefundRecord[]
  /** Instruments whose first settled payment is in this batch (`instrument.settled`). */
  instruments: { id: string; charge: string }[]
  totals: BatchTotals
}

/**
 * `testHelpers.settle`: settles every successful, unsettled payment and refund of the
 * account in one batch (see {@link settleBatch}), which may be empty.
 */
export async function settle(context: StepContext): Promise<Settlement> {
  const payments = await allOf(context, 'payment', { status: 'success', unsettled: true })
  const refunds = await allOf(context, 'refund', { status: 'success', unsettled: true })
  // Lists are newest first; a batch lists objects in the order they happened.
  const claimed = await claim(context, payments.reverse(), refunds.reverse())
  return recordSettlement(context, claimed)
}

/** The payments and refunds a settlement batch is for, by id. */
export interface SettlementSelection {
  payments?: readonly string[]
  refunds?: readonly string[]
}

/**
 * For processors with `settlementDelayMs`: the timed work that settles these objects that much
 * later, as the acquirer's batch would (none for other processors).
 */
export function settlementLater(
  context: StepContext,
  charge: Charge,
  { payments = [], refunds = [] }: SettlementSelection,
): LaterWork[] {
  const delay = processorOf(context, charge).processor.settlementDelayMs
  if (delay === undefined) return []
  const task: LaterTask = { task: 'settlement', payments, refunds, requestLog: context.requestLog }
  return [{ task, afterMs: delay }]
}

/**
 * Runs the acquirer's batch: objects settled in the meantime (by the test helper) are skipped,
 * and nothing is recorded when none is left.
 */
export async function settleLater(
  context: StepContext,
  selection: Required<SettlementSelection>,
): Promise<void> {
  const payments = await Promise.all(
    selection.payments.map((id) => mustGet(context, 'payment', id)),
  )
  const refunds = await Promise.all(selection.refunds.map((id) => mustGet(context, 'refund', id)))
  const charges = new Set([
    ...payments.map((payment) => payment.charge.id),
    ...refunds.map((refund) => refund.charge),
  ])
  // The batch is stored whole or not at all (a crash half-way would leave objects settled with
  // no settlement and no events, which no later run would repair): under the locks of all its
  // charges at once, taken in one order so two batches never wait for each other, and in one
  // transaction.
  await withChargeLocks(context, [...charges].sort(), () =>
    atomically(context, async () => {
      const claimed = await claim(context, payments, refunds, alreadyLocked)
      if (claimed.payments.length > 0 || claimed.refunds.length > 0) {
        await recordSettlement(context, claimed, alreadyLocked)
      }
    }),
  )
}

/**
 * Marks each candidate settled (`settled_at`) under its charge's lock, after checking there
 * that it is still successful and unsettled: two settlements running at once, or a settlement
 * and a step of the same charge, can never settle one object twice, whatever the store. An
 * object whose amount would make a total too large to be exact waits for the next batch.
 */
async function claim(
  context: StepContext,
  payments: readonly PaymentRecord[],
  refunds: readonly RefundRecord[],
  lock: ChargeLocking = eachCharge(context),
): Promise<Claimed> {
  const { deps, account } = context
  const claimed: Claimed = {
    settledAt: deps.now().toISOString(),
    payments: [],
    refunds: [],
    instruments: [],
    totals: new BatchTotals(),
  }
  const settleable = (object: PaymentRecord | RefundRecord) =>
    object.status === 'success' && object.settled_at == null
  for (const candidate of payments) {
    const charge = candidate.charge.id
    await lock(charge, async () => {
      const payment = await mustGet(context, 'payment', candidate.id)
      if (!settleable(payment) || !claimed.totals.add('payments', payment)) return
      const instrument = payment.instrument.id
      const siblings = await allOf(context, 'payment', { instrument })
      if (siblings.every((other) => other.settled_at == null)) {
        claimed.instruments.push({ id: instrument, charge })
      }
      const settled: PaymentRecord = Object.freeze({ ...payment, settled_at: claimed.settledAt })
      await deps.store.putObject(account.id, 'payment', settled)
      claimed.payments.push(settled)
    })
  }
  for (const candidate of refunds) {
    await lock(candidate.charge, async () => {
      const refund = await mustGet(context, 'refund', candidate.id)
      if (!settleable(refund) || !claimed.totals.add('refunds', refund)) return
      const settled: RefundRecord = Object.freeze({ ...refund, settled_at: claimed.settledAt })
      await deps.store.putObject(account.id, 'refund', settled)
      claimed.refunds.push(settled)
    })
  }
  return claimed
}

/**
 * Stores the batch of what was claimed and its events: `payment.settled`, `refund.settled`, and
 * `instrument.settled` once per instrument (the first time one of its payments settles), each
 * under its charge's lock with the objects as they stand.
 */
async function recordSettlement(
  context: StepContext,
  claimed: Claimed,
  lock: ChargeLocking = eachCharge(context),
): Promise<Settlement> {
  const { deps, account } = context
  const settlement: Settlement = Object.freeze({
    id: newId('st'),
    created_at: claimed.settledAt,
    payments: claimed.payments.map((payment) => payment.id),
    refunds: claimed.refunds.map((refund) => refund.id),
    instruments: claimed.instruments.map((instrument) => instrument.id),
    totals: claimed.totals.toTotals(),
  })
  await deps.store.putObject(account.id, 'settlement', settlement)
  for (const { id, charge } of claimed.payments) {
    await lock(charge.id, async () => {
      const payment = await mustGet(context, 'payment', id)
      await deps.recordEvent(account.id, 'payment.settled', id, {
        ...(await parentsOf(context, payment)),
        payment,
        settlement,
      })
    })
  }
  for (const { id, charge } of claimed.refunds) {
    await lock(charge, async () => {
      const refund = await mustGet(context, 'refund', id)
      const payment = await mustGet(context, 'payment', refund.payment)
      await deps.recordEvent(account.id, 'refund.settled', id, {
        ...(await parentsOf(context, payment)),
        payment,
        refund,
        settlement,
      })
    })
  }
  for (const { id, charge } of claimed.instruments) {
    await lock(charge, async () => {
      await deps.recordEvent(account.id, 'instrument.settled', id, {
        charge: await mustGet(context, 'charge', charge),
        instrument: await mustGet(context, 'instrument', id),
        settlement,
      })
    })
  }
  return settlement
}

async function parentsOf(context: StepContext, payment: PaymentRecord) {
  return {
    charge: await mustGet(context, 'charge', payment.charge.id),
    instrument: await mustGet(context, 'instrument', payment.instrument.id),
  }
}

/**
 * Exact per-currency sums (minor units) of a batch. `add` refuses an object that would take a
 * sum past what a JSON number holds exactly; `net_amount` is negative when refunds exceed
 * payments, and never larger than either sum.
 */
class BatchTotals {
  readonly #sums = new Map<string, { payments: bigint; refunds: bigint }>()

  add(kind: 'payments' | 'refunds', object: PaymentRecord | RefundRecord): boolean {
    const { currency } = object
    const sums = this.#sums.get(currency) ?? { payments: 0n, refunds: 0n }
    const next = sums[kind] + sumMinor([object], currency)
    if (exactAmount(next, currency) === undefined) return false
    this.#sums.set(currency, { ...sums, [kind]: next })
    return true
  }

  toTotals(): SettlementTotal[] {
    return [...this.#sums.keys()].sort().map((currency) => {
      const { payments, refunds } = this.#sums.get(currency) ?? { payments: 0n, refunds: 0n }
      return {
        currency,
        payments_amount: toAmount(payments, currency),
        refunds_amount: toAmount(refunds, currency),
        net_amount: toAmount(payments - refunds, currency),
      }
    })
  }
}
