import { revise, type StepContext } from './context'
import { allOf, mustGet, withObjectLocked } from './objects'
import { reverse } from './reverse'
import { inProgress } from './transitions'

/**
 * DELETE /v2/instruments/{id}: the merchant invalidates the instrument, so no payment can be
 * created from it any more (a recurring token is revoked this way).
 *
 * - Authorized with nothing captured: its authorization is reversed first, so the customer's
 *   funds are released — `reversal.success` then `instrument.invalid`. A reversal the processor
 *   confirms later invalidates the instrument when it succeeds; a declined one answers its 402
 *   and the instrument stays authorized (the hold is still there).
 * - Authorized with payments (captured, or a capture under way), or pending (a 3DS challenge
 *   or the processor's answer not yet in): nothing is left to void, it becomes `invalid` at once
 *   with `instrument.invalid`; its payments stay refundable.
 * - Already invalid, or a reversal already under way: nothing changes, no event — deleting twice
 *   is as good as once.
 */
export async function invalidateInstrument(
  context: StepContext,
  instrumentId: string,
): Promise<void> {
  const { deps, account } = context
  await withObjectLocked(context, 'instrument', instrumentId, async (instrument) => {
    if (instrument.status === 'invalid') return
    if (instrument.status === 'authorized') {
      const reversals = await allOf(context, 'reversal', { instrument: instrument.id })
      if (reversals.some((reversal) => reversal.status === 'pending')) return
      const payments = await allOf(context, 'payment', { instrument: instrument.id })
      if (!payments.some(inProgress)) {
        await reverse(context, instrument)
        return
      }
    }
    const charge = await mustGet(context, 'charge', instrument.charge.id)
    const invalid = revise(context, instrument, {
      status: 'invalid',
      success: false,
      redirect: null,
    })
    await deps.store.deleteChallenge(instrument.id)
    await deps.store.putObject(account.id, 'instrument', invalid)
    await deps.recordEvent(account.id, 'instrument.invalid', invalid.id, {
      charge,
      instrument: invalid,
    })
  })
}
