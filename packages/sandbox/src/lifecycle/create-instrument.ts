import type { CreateInstrumentRequest, Instrument } from '@chargekit/schemas'
import { cardParams, isCardExpired, toCardInput } from '../card/card-params'
import { newId } from '../ids'
import type { Outcome } from '../processors/processor'
import { finishAuthorization } from './authorization'
import { processorOf, type StepContext } from './context'
import { instrumentExternalIds } from './external-ids'
import { money } from './money'
import { withObjectLocked } from './objects'
import { callProcessor } from './processor-call'
import { chargeReferenceOf } from './references'
import { assertChargeAcceptsInstrument } from './transitions'

/**
 * POST /v2/instruments: the customer's card for a confirmed charge. `instrument.created`, then
 * the processor authorizes (see `finishAuthorization`). An expired card is declined with
 * 03.00.0002 by the sandbox itself, whatever the processor.
 */
export async function createInstrument(
  context: StepContext,
  input: CreateInstrumentRequest,
  origin: string,
): Promise<Instrument> {
  const { deps, account } = context
  return withObjectLocked(context, 'charge', input.charge, async (charge) => {
    await assertChargeAcceptsInstrument(context, charge)
    const { processor, processorContext } = processorOf(context, charge)
    const params = charge.instrument_params
    const enable3ds = params?.enable3ds === true
    const recurring = params?.recurring === true
    const now = deps.now().toISOString()
    const created: Instrument = Object.freeze({
      id: newId('in'),
      status: 'pending',
      success: false,
      channel: processorContext.channel,
      customer: null,
      external_ids: instrumentExternalIds(processor),
      failure_description: null,
      redirect: null,
      request_log: context.requestLog,
      params: Object.freeze(cardParams(input, account.fingerprintKey, enable3ds)),
      created_at: now,
      updated_at: now,
      charge: chargeReferenceOf(charge),
      last_payment: null,
      used: false,
      amount: charge.amount,
      currency: charge.currency,
      captured_amount: 0,
      recurring,
      captured_on_creation: params?.captured_on_creation === true,
      failure_code: null,
    })
    const request = {
      instrumentId: created.id,
      card: toCardInput(input),
      amount: money(charge.amount, charge.currency),
      enable3ds,
      recurring,
    }
    await deps.store.putObject(account.id, 'instrument', created)
    await deps.recordEvent(account.id, 'instrument.created', created.id, {
      charge,
      instrument: created,
    })
    const outcome: Outcome = isCardExpired(input, deps.now())
      ? { status: 'failed', code: '03.00.0002' }
      : await callProcessor(
          deps,
          processor.name,
          'authorize',
          () => processor.authorize(processorContext, request),
          'customer',
        )
    return finishAuthorization(context, created.id, outcome, origin)
  })
}
