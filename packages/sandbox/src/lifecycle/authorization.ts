import { randomBytes } from 'node:crypto'
import type { Charge, Instrument } from '@chargekit/schemas'
import { declined } from '../api-problem'
import type { Outcome } from '../processors/processor'
import { capture } from './capture'
import { processorOf, revise, type StepContext } from './context'
import { money } from './money'
import { mustGet } from './objects'
import { applyLater } from './pending'
import { failureOf } from './processor-call'

/**
 * Records the processor's answer to an authorization (the instrument step), under the charge's
 * lock: `instrument.risk` when a risk rule fired (any 06.* code, or a flagged outcome), then
 * `instrument.authorized` (and the payment at once when `captured_on_creation`),
 * `instrument.pending` (a 3DS page, or the processor answering later) or `instrument.invalid`.
 * `origin` is where the customer reaches the sandbox, for the 3DS page's URL.
 */
export async function finishAuthorization(
  context: StepContext,
  instrumentId: string,
  outcome: Outcome,
  origin: string,
): Promise<Instrument> {
  const { deps, account } = context
  const instrument = await mustGet(context, 'instrument', instrumentId)
  const charge = await mustGet(context, 'charge', instrument.charge ?? '')
  const flagged =
    ('risk' in outcome && outcome.risk === true) ||
    (outcome.status === 'failed' && outcome.code.startsWith('06.'))
  if (flagged) {
    await deps.recordEvent(account.id, 'instrument.risk', instrument.id, { charge, instrument })
  }

  if (outcome.status === 'pending') {
    let pending = instrument
    if (outcome.awaiting === 'customer') {
      const token = randomBytes(24).toString('base64url')
      await deps.store.putChallenge({ accountId: account.id, instrumentId: instrument.id, token })
      const url = `${origin}/v2/3ds/${encodeURIComponent(instrument.id)}?token=${token}`
      pending = revise(context, instrument, { redirect: Object.freeze({ url, method: 'GET' }) })
      await deps.store.putObject(account.id, 'instrument', pending)
    } else {
      const { processor } = processorOf(context, charge)
      applyLater(context, charge.id, processor.name, 'authorize', outcome, (final) =>
        finishAuthorization(context, instrument.id, final, origin),
      )
    }
    await deps.recordEvent(account.id, 'instrument.pending', pending.id, {
      charge,
      instrument: pending,
    })
    return pending
  }

  if (outcome.status === 'failed') {
    const { code, description } = failureOf(outcome)
    const invalid = revise(context, instrument, {
      status: 'invalid',
      success: false,
      redirect: null,
      failure_code: code,
      failure_description: description,
    })
    await deps.store.putObject(account.id, 'instrument', invalid)
    await deps.recordEvent(account.id, 'instrument.invalid', invalid.id, {
      charge,
      instrument: invalid,
    })
    throw declined(code, description, { charge: charge.id, instrument: invalid.id })
  }

  const authorized = revise(context, instrument, {
    status: 'authorized',
    success: true,
    redirect: null,
  })
  await deps.store.putObject(account.id, 'instrument', authorized)
  await deps.recordEvent(account.id, 'instrument.authorized', authorized.id, {
    charge,
    instrument: authorized,
  })
  if (authorized.captured_on_creation !== true) return authorized
  return captureOnCreation(context, charge, authorized)
}

/**
 * `captured_on_creation`: the full charge amount is captured at once. If that capture is
 * declined, the 402 names the payment (the instrument stays authorized, and a new capture may
 * be attempted with POST /v2/payments).
 */
async function captureOnCreation(context: StepContext, charge: Charge, instrument: Instrument) {
  await capture(context, charge, instrument, money(charge.amount, charge.currency), {
    description: '',
    metadata: {},
  })
  return mustGet(context, 'instrument', instrument.id)
}
