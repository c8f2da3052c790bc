import { isErrorCode } from '@chargekit/errors'
import type { AwaitingProcessorOutcome, FinalOutcome, Outcome } from './outcome'

/**
 * The outcomes a step may answer: `final` (the charge step, the customer's answer, the answer a
 * pending outcome gives later), `later` (money movements may also be confirmed by the processor
 * later) or `customer` (the authorize step may also wait for the customer).
 */
export interface AcceptedOutcomes {
  final: FinalOutcome
  later: FinalOutcome | AwaitingProcessorOutcome
  customer: Outcome
}

const expectedStatus: Record<keyof AcceptedOutcomes, string> = {
  final: `expected status 'succeeded' | 'failed'`,
  later: `expected status 'succeeded' | 'failed' | 'pending'`,
  customer: `expected status 'succeeded' | 'failed' | 'pending'`,
}

/**
 * What is wrong with a processor's answer to a step that accepts `accepts`, said so the
 * processor's author knows what to change; undefined when the answer is a valid outcome. The
 * sandbox logs it, and the conformance kit reports it.
 */
export function outcomeProblem(
  value: unknown,
  accepts: keyof AcceptedOutcomes,
): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `expected an outcome object such as { status: 'succeeded' }`
  }
  const outcome = value as Record<string, unknown>
  if (outcome.transactionId !== undefined && typeof outcome.transactionId !== 'string') {
    return 'transactionId must be a string'
  }
  switch (outcome.status) {
    case 'succeeded':
      return undefined
    case 'failed':
      if (!isErrorCode(outcome.code)) {
        return `a failed outcome needs code, a catalogue error code such as '03.03.0000' (got ${describeValue(outcome.code)})`
      }
      return outcome.description === undefined || typeof outcome.description === 'string'
        ? undefined
        : 'description must be a string'
    case 'pending':
      if (accepts === 'final') {
        return `this answer must be final: ${expectedStatus.final}, not 'pending'`
      }
      if (outcome.awaiting === 'customer') {
        return accepts === 'customer'
          ? customerProblem(outcome)
          : `only authorize() may wait for the customer (awaiting: 'customer'): answer at once, or awaiting: 'processor' with afterMs and outcome`
      }
      if (outcome.awaiting !== 'processor') {
        return `a pending outcome needs awaiting: 'processor' or 'customer' (got ${describeValue(outcome.awaiting)})`
      }
      if (!isDuration(outcome.afterMs)) {
        return `the outcome awaiting the processor needs afterMs, a number of ms >= 0 (got ${describeValue(outcome.afterMs)})`
      }
      if (outcome.outcome === undefined) {
        return 'the outcome awaiting the processor must carry `outcome`, the final answer it gives after afterMs'
      }
      return prefixed('its `outcome`', outcomeProblem(outcome.outcome, 'final'))
    default:
      return `${expectedStatus[accepts]} (got status ${describeValue(outcome.status)})`
  }
}

const actionTypes: ReadonlySet<unknown> = new Set(['approval_page', 'app', 'reference'])

function customerProblem(outcome: Record<string, unknown>): string | undefined {
  const action = outcome.action as Record<string, unknown> | undefined
  if (action !== undefined) {
    if (typeof action !== 'object' || action === null || !actionTypes.has(action.type)) {
      return `action needs type 'approval_page' | 'app' | 'reference' (got ${describeValue(action)})`
    }
    const parameters = action.parameters
    if (action.type === 'reference' && parameters === undefined) {
      return 'a reference action needs parameters: what the customer pays (entity, reference…)'
    }
    if (
      parameters !== undefined &&
      (typeof parameters !== 'object' ||
        parameters === null ||
        !Object.values(parameters).every(
          (item) => typeof item === 'string' || typeof item === 'number',
        ))
    ) {
      return 'action.parameters must be an object of strings and numbers'
    }
  }
  if (outcome.expiresAfterMs !== undefined && !isDuration(outcome.expiresAfterMs)) {
    return `expiresAfterMs must be a number of ms >= 0 (got ${describeValue(outcome.expiresAfterMs)})`
  }
  const answer = outcome.customerAnswer as Record<string, unknown> | undefined
  if (
    answer !== undefined &&
    (typeof answer !== 'object' ||
      answer === null ||
      !isDuration(answer.afterMs) ||
      typeof answer.approved !== 'boolean')
  ) {
    return 'customerAnswer must be { afterMs: number >= 0, approved: boolean }'
  }
  return undefined
}

function isDuration(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
}

function prefixed(where: string, problem: string | undefined): string | undefined {
  return problem === undefined ? undefined : `${where}: ${problem}`
}

/** A value as JSON for a message (`undefined`, functions and cycles as text). */
export function describeValue(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
