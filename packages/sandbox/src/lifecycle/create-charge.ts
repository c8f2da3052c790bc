import type { Charge, CreateChargeRequest } from '@chargekit/schemas'
import { chargeTypeLabel, isRecurringChargeType } from '../accounts/charge-types'
import { declined } from '../api-problem'
import { newId } from '../ids'
import type { FinalOutcome } from '../processors/processor'
import { resolveChannels } from './charge-channels'
import { processorOf, revise, type StepContext } from './context'
import { requestedMoney } from './money'
import { callProcessor, failureOf } from './processor-call'

/**
 * POST /v2/charges: `charge.created`, then the processor's charge step decides
 * `charge.confirmed` or `charge.error` (402, the charge kept with its failure). The charge step
 * is synchronous by design: a processor answering it `pending` fails it with 99.02.0001.
 */
export async function createCharge(
  context: StepContext,
  input: CreateChargeRequest,
): Promise<Charge> {
  const { deps, account } = context
  const channels = resolveChannels(account, input.charge_type, input.channels)
  const amount = requestedMoney(input.amount, input.currency)
  const now = deps.now().toISOString()
  const recurringType = isRecurringChargeType(input.charge_type)
  const created: Charge = Object.freeze({
    id: newId('ch'),
    charge_type: input.charge_type,
    charge_type_label: chargeTypeLabel(input.charge_type),
    amount: input.amount,
    currency: input.currency,
    events_url: input.events_url,
    redirect_url: input.redirect_url ?? '',
    metadata: Object.freeze({ ...input.metadata }),
    // The effective parameters, defaults filled in, so the merchant sees what will happen.
    instrument_params: Object.freeze({
      captured_on_creation: input.instrument_params?.captured_on_creation ?? !recurringType,
      enable3ds: input.instrument_params?.enable3ds ?? false,
      recurring: input.instrument_params?.recurring ?? recurringType,
    }),
    channels,
    confirmed: false,
    external_ids: null,
    external: false,
    failure_code: null,
    failure_description: null,
    created_at: now,
    updated_at: now,
    expires_at: null,
    request_log: context.requestLog,
  })
  const { processor, processorContext } = processorOf(context, created)
  // A new charge needs no lock: nobody else knows its id yet.
  await deps.store.putObject(account.id, 'charge', created)
  await deps.recordEvent(account.id, 'charge.created', created.id, { charge: created })

  const onCharge = processor.onCharge
  const outcome: FinalOutcome =
    onCharge === undefined
      ? { status: 'succeeded' }
      : await callProcessor(
          deps,
          processor.name,
          'onCharge',
          () => onCharge(processorContext, { amount }),
          'final',
        )
  if (outcome.status === 'failed') {
    const { code, description } = failureOf(outcome)
    const failed = revise(context, created, {
      failure_code: code,
      failure_description: description,
    })
    await deps.store.putObject(account.id, 'charge', failed)
    await deps.recordEvent(account.id, 'charge.error', failed.id, { charge: failed })
    throw declined(code, description, { charge: failed.id })
  }
  const confirmed = revise(context, created, { confirmed: true })
  await deps.store.putObject(account.id, 'charge', confirmed)
  await deps.recordEvent(account.id, 'charge.confirmed', confirmed.id, { charge: confirmed })
  return confirmed
}
