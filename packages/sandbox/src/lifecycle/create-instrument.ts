import {
  type CardParams,
  cardDetailsSchema,
  createInstrumentRequestSchema,
} from '@chargekit/schemas'
import { instrumentRequestSchema } from '../accounts/charge-types'
import { toCardInput } from '../card/card-params'
import { validateBody } from '../http/validate'
import { newId } from '../ids'
import type { AuthorizeRequest, Outcome } from '../processors/processor'
import type { InstrumentRecord } from '../storage/records'
import { finishAuthorization } from './authorization'
import { chargeTypeOf, processorOf, type StepContext } from './context'
import { instrumentExternalIds } from './external-ids'
import { money } from './money'
import { withObjectLocked } from './objects'
import { callProcessor } from './processor-call'
import { chargeReferenceOf } from './references'
import { assertChargeAcceptsInstrument } from './transitions'

/**
 * POST /v2/instruments: what the customer gave for a confirmed charge, validated by the schema
 * of the charge's type (a card, a phone number, nothing for a reference). `instrument.created`,
 * then the processor authorizes (see `finishAuthorization`). The charge type may decline by
 * itself first: an expired card is refused with 03.00.0002, whatever the processor.
 */
export async function createInstrument(
  context: StepContext,
  body: unknown,
  origin: string,
): Promise<InstrumentRecord> {
  const { deps, account } = context
  const chargeId = chargeNamedBy(body)
  return withObjectLocked(context, 'charge', chargeId, async (charge) => {
    const chargeType = chargeTypeOf(context, charge)
    const { charge: _charge, ...details } = validateBody(instrumentRequestSchema(chargeType), body)
    await assertChargeAcceptsInstrument(context, charge)
    const { processor, processorContext } = processorOf(context, charge)
    const params = charge.instrument_params
    const enable3ds = params?.enable3ds === true
    const recurring = params?.recurring === true
    const detailsContext = { fingerprint: account.fingerprint, enable3ds, now: deps.now() }
    const now = deps.now().toISOString()
    const created: InstrumentRecord = Object.freeze({
      id: newId('in'),
      status: 'pending',
      success: false,
      channel: processorContext.channel,
      customer: null,
      external_ids: instrumentExternalIds(processor),
      failure_description: null,
      redirect: null,
      request_log: context.requestLog,
      params: Object.freeze((chargeType.params?.(details, detailsContext) ?? {}) as CardParams),
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
    const card = cardDetailsSchema.safeParse(details)
    const request: AuthorizeRequest = {
      instrumentId: created.id,
      chargeType: chargeType.id,
      details: Object.freeze(details),
      ...(card.success ? { card: toCardInput(card.data) } : {}),
      amount: money(charge.amount, charge.currency),
      enable3ds,
      recurring,
    }
    await deps.store.putObject(account.id, 'instrument', created)
    await deps.recordEvent(account.id, 'instrument.created', created.id, {
      charge,
      instrument: created,
    })
    const outcome: Outcome =
      chargeType.screen?.(details, detailsContext) ??
      (await callProcessor(
        deps,
        processor.name,
        'authorize',
        () => processor.authorize(processorContext, request),
        'customer',
      ))
    return finishAuthorization(context, created.id, outcome, origin)
  })
}

/**
 * The charge the body names. The other fields are judged by that charge's type once it is
 * found, so a charge that does not exist is a 404 whatever they are: an MB WAY request with a
 * mistyped charge id is told so, not that a card is missing. A body naming no charge has no type
 * to be judged by, and is judged as the card request the service documents.
 */
function chargeNamedBy(body: unknown): string {
  const named = (body as { charge?: unknown } | null | undefined)?.charge
  if (typeof named === 'string' && named !== '') return named
  return validateBody(createInstrumentRequestSchema, body).charge
}
