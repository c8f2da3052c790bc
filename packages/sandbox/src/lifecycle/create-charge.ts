import type { Channel, Charge, CreateChargeRequest } from '@chargekit/schemas'
import { chargeTypeLabel, isRecurringChargeType } from '../accounts/charge-types'
import { declined, invalidParameters } from '../api-problem'
import { newId } from '../ids'
import { processorOf, revise, type StepContext } from './context'
import { money } from './money'
import { callProcessor, failureOf } from './processor-call'

/**
 * POST /v2/charges: `charge.created`, then the processor's charge step decides
 * `charge.confirmed` or `charge.error` (402, the charge kept with its failure).
 */
export async function createCharge(
  context: StepContext,
  input: CreateChargeRequest,
): Promise<Charge> {
  const { deps, account } = context
  const channels = resolveChannels(context, input)
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
  // A new charge needs no lock: nobody else knows its id yet.
  await deps.store.putObject(account.id, 'charge', created)
  await deps.recordEvent(account.id, 'charge.created', created.id, { charge: created })

  const { processor, processorContext } = processorOf(context, created)
  const onCharge = processor.onCharge
  const outcome =
    onCharge === undefined
      ? ({ status: 'succeeded' } as const)
      : await callProcessor(
          deps,
          processor.name,
          'onCharge',
          () => onCharge(processorContext, { amount: money(created.amount, created.currency) }),
          { customerAction: false },
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
  // The charge step is synchronous by design: a pending answer confirms it like a success.
  const confirmed = revise(context, created, { confirmed: true })
  await deps.store.putObject(account.id, 'charge', confirmed)
  await deps.recordEvent(account.id, 'charge.confirmed', confirmed.id, { charge: confirmed })
  return confirmed
}

/** The request's channel labels, or the account's default for the charge type. */
function resolveChannels(context: StepContext, input: CreateChargeRequest): Channel[] {
  const { account } = context
  if (!account.chargeTypes.includes(input.charge_type)) {
    throw invalidParameters({
      charge_type: [
        `Expected one of this account's charge types: ${account.chargeTypes.join(', ')}`,
      ],
    })
  }
  if (input.channels === undefined || input.channels.length === 0) {
    const fallback = account.defaultChannel(input.charge_type)
    return fallback === undefined ? [] : [fallback]
  }
  const problems: Record<string, string[]> = {}
  const channels: Channel[] = []
  input.channels.forEach((label, index) => {
    const channel = account.channelByLabel(label)
    if (channel === undefined || !label.startsWith(`${input.charge_type}_`)) {
      const labels = account.channels
        .filter((candidate) => candidate.label.startsWith(`${input.charge_type}_`))
        .map((candidate) => candidate.label)
      problems[`channels.${index}`] = [
        `Unknown channel for charge type ${input.charge_type}: expected one of ${labels.join(', ')}`,
      ]
    } else if (!channels.includes(channel)) {
      channels.push(channel)
    }
  })
  if (Object.keys(problems).length > 0) throw invalidParameters(problems)
  return channels
}
