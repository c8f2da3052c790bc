// Charges: creating and confirming one, and the account's channels a charge may use.

import type { Channel, Charge, createChargeRequestSchemaFor } from '@chargekit/schemas'
import type * as z from 'zod'
import type { Account } from '../accounts/accounts'
import { newId } from '../ids'
import type { FinalOutcome } from '../processors/outcome'
import { targetsReversalTest } from '../processors/test-amounts'
import {
  callProcessor,
  failureOf,
  processorMessage,
  processorOf,
  revise,
  type StepContext,
} from './context'
import { declined, invalidParameters } from './lifecycle-error'
import { money, requestedMoney } from './money'
import { withObjectLocked } from './objects'
import { assertChargeConfirmable } from './transitions'

/** A `charges.create` body as the service reads it: `metadata` may be a string. */
export type ChargeRequest = z.output<ReturnType<typeof createChargeRequestSchemaFor>>

/**
 * `charges.create`: `charge.created`, then, unless the request says `confirmed: false`, the
 * charge step of {@link confirmCharge}.
 */
export async function createCharge(context: StepContext, input: ChargeRequest): Promise<Charge> {
  const { deps, account } = context
  const channels = resolveChannels(account, input.charge_type, input.channels)
  requestedMoney(context, input.amount, input.currency)
  const now = deps.now().toISOString()
  const chargeType = context.deps.processors.chargeType(input.charge_type)
  const recurringType = chargeType?.recurring === true
  // A test amount aimed at the reversal needs an uncaptured authorization to reverse, so only
  // an explicit `captured_on_creation` captures it.
  const processor = context.deps.processors.get(channels[0]?.processor ?? '')
  const capturedByDefault = !recurringType && !targetsReversalTest(processor, input.amount)
  const created: Charge = Object.freeze({
    id: newId('ch'),
    charge_type: input.charge_type,
    charge_type_label: chargeType?.label ?? input.charge_type,
    amount: input.amount,
    currency: input.currency,
    events_url: input.events_url,
    redirect_url: input.redirect_url ?? '',
    // Kept exactly as sent: a string stays the string the merchant will split again.
    metadata:
      typeof input.metadata === 'string' ? input.metadata : Object.freeze({ ...input.metadata }),
    // The effective parameters, defaults filled in, so the merchant sees what will happen.
    instrument_params: Object.freeze({
      captured_on_creation: input.instrument_params?.captured_on_creation ?? capturedByDefault,
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
    description: input.description ?? '',
  })
  // Fails here, before anything is stored, when the channel's processor is not registered.
  processorOf(context, created)
  // A new charge needs no lock: nobody else knows its id yet.
  await deps.store.putObject(account.id, 'charge', created)
  await deps.recordEvent(account.id, 'charge.created', created.id, { charge: created })
  if (input.confirmed === false) return created
  return runChargeStep(context, created)
}

/**
 * `charges.confirm`: the charge step of an unconfirmed charge. A confirmed charge is
 * answered as it is, with no new event, so a repeated confirmation is harmless; a failed one is
 * a 409 carrying its failure.
 */
export async function confirmCharge(context: StepContext, chargeId: string): Promise<Charge> {
  return withObjectLocked(context, 'charge', chargeId, async (charge) => {
    if (charge.confirmed) return charge
    assertChargeConfirmable(charge)
    return runChargeStep(context, charge)
  })
}

/**
 * The processor's charge step decides `charge.confirmed` or `charge.error` (402, the charge
 * kept with its failure; a `.10` test amount fails here, so an unconfirmed charge fails when it
 * is confirmed). The step is synchronous by design: a processor answering it `pending` fails it
 * with 99.02.0001.
 */
async function runChargeStep(context: StepContext, charge: Charge): Promise<Charge> {
  const { deps, account } = context
  const { processor, processorContext } = processorOf(context, charge)
  const onCharge = processor.onCharge
  const outcome: FinalOutcome =
    onCharge === undefined
      ? { status: 'succeeded' }
      : await callProcessor(
          deps,
          processor.name,
          'onCharge',
          () => onCharge(processorContext, { amount: money(charge.amount, charge.currency) }),
          'final',
        )
  if (outcome.status === 'failed') {
    const failure = failureOf(outcome)
    const failed = revise(context, charge, {
      failure_code: failure.code,
      failure_description: failure.description,
      ...processorMessage(failure.message),
    })
    await deps.store.putObject(account.id, 'charge', failed)
    await deps.recordEvent(account.id, 'charge.error', failed.id, { charge: failed })
    throw declined(failure, { charge: failed.id })
  }
  const confirmed = revise(context, charge, { confirmed: true })
  await deps.store.putObject(account.id, 'charge', confirmed)
  await deps.recordEvent(account.id, 'charge.confirmed', confirmed.id, { charge: confirmed })
  return confirmed
}

type Problems = Record<string, string[]>

/**
 * The problems of a `charges.create` body that depend on the account: a charge type it has no
 * channel for, channels it lacks or that serve another charge type. Given the raw body, so that
 * they are reported in the same 400 as the schema's problems; fields of the wrong type are left
 * to the schema.
 */
export function chargeChannelProblems(account: Account, fields: Record<string, unknown>): Problems {
  const chargeType =
    typeof fields.charge_type === 'string' && fields.charge_type !== ''
      ? fields.charge_type
      : undefined
  const labels = Array.isArray(fields.channels) ? (fields.channels as unknown[]) : undefined
  return chooseChannels(account, chargeType, labels).problems
}

/** The channels a charge uses: those it names, else the account's default for its type (400 on a bad one). */
export function resolveChannels(
  account: Account,
  chargeType: string,
  labels: readonly string[] | undefined,
): Channel[] {
  const { channels, problems } = chooseChannels(account, chargeType, labels)
  if (Object.keys(problems).length > 0) throw invalidParameters(problems)
  return channels
}

/**
 * A label fits a charge when it is one of the account's channels for the charge's type (the
 * channel's own charge type, not a prefix of its label). Non-string labels are skipped.
 */
function chooseChannels(
  account: Account,
  chargeType: string | undefined,
  labels: readonly unknown[] | undefined,
): { channels: Channel[]; problems: Problems } {
  const problems: Problems = {}
  const ofType = chargeType === undefined ? [] : account.channelsFor(chargeType)
  if (chargeType !== undefined && ofType.length === 0) {
    problems.charge_type = [
      `Expected one of this account's charge types: ${account.chargeTypes.join(', ')}`,
    ]
  }
  if (labels === undefined || labels.length === 0) {
    return { channels: ofType.slice(0, 1), problems }
  }
  const expected = (ofType.length > 0 ? ofType : account.channels)
    .map((channel) => channel.label)
    .join(', ')
  const channels: Channel[] = []
  labels.forEach((label, index) => {
    if (typeof label !== 'string') return
    const channel = ofType.find((candidate) => candidate.label === label)
    if (channel !== undefined) {
      if (!channels.includes(channel)) channels.push(channel)
      return
    }
    const serves = account.chargeTypeOf(label)
    if (serves === undefined) {
      problems[`channels.${index}`] = [`Unknown channel: expected one of ${expected}`]
    } else if (chargeType !== undefined) {
      problems[`channels.${index}`] = [
        `Channel ${label} serves charge type ${serves}, not ${chargeType}: expected one of ${expected}`,
      ]
    }
  })
  return { channels, problems }
}
