import { isErrorCode } from '@chargekit/errors'
import { designationOf } from '../api-problem'
import type {
  AwaitingProcessorOutcome,
  FailedOutcome,
  FinalOutcome,
  Outcome,
} from '../processors/processor'
import type { LifecycleDeps } from './context'

/**
 * What a failed step records: the code, its catalogue designation as `failure_description`
 * (integrations compare it, so a processor never replaces it) and the processor's own text, if
 * it gave one.
 */
export interface Failure {
  code: string
  description: string
  message?: string
}

export function failureOf(outcome: FailedOutcome): Failure {
  const failure: Failure = { code: outcome.code, description: designationOf(outcome.code) }
  if (outcome.description !== undefined) failure.message = outcome.description
  return failure
}

/** The field a failed object carries the processor's own text in: `failure_message`. */
export function processorMessage(message: string | undefined): { failure_message?: string } {
  return message === undefined ? {} : { failure_message: message }
}

/**
 * The outcomes a step may answer: `final` (the charge step, a 3DS decision, the answer a pending
 * outcome gives later), `later` (money movements may also be confirmed by the processor later) or
 * `customer` (the authorize step may also wait for the customer: a page, an app, a reference).
 */
export interface AcceptedOutcomes {
  final: FinalOutcome
  later: FinalOutcome | AwaitingProcessorOutcome
  customer: Outcome
}

/**
 * Calls a processor plug-in and checks its answer. A processor that throws fails the step with
 * 99.02.0004 (Processor Unhandled Error), one that answers something malformed or an outcome
 * the step does not accept with 99.02.0001 (Unexpected Processor Response): the sandbox records
 * the failure like any decline and logs the cause, instead of answering 500.
 */
export async function callProcessor<Accepts extends keyof AcceptedOutcomes>(
  deps: LifecycleDeps,
  processorName: string,
  step: string,
  run: () => unknown,
  accepts: Accepts,
): Promise<AcceptedOutcomes[Accepts]> {
  let outcome: unknown
  try {
    outcome = await run()
  } catch (error) {
    deps.logger.error(`processor ${processorName} threw in ${step}`, { error })
    return { status: 'failed', code: '99.02.0004' }
  }
  if (isAccepted(outcome, accepts)) return outcome as AcceptedOutcomes[Accepts]
  deps.logger.error(`processor ${processorName} answered ${step} with a malformed outcome`, {
    outcome: describe(outcome),
    accepted: accepts,
  })
  return { status: 'failed', code: '99.02.0001' }
}

function isAccepted(value: unknown, accepts: keyof AcceptedOutcomes): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const outcome = value as Record<string, unknown>
  if (outcome.transactionId !== undefined && typeof outcome.transactionId !== 'string') return false
  switch (outcome.status) {
    case 'succeeded':
      return true
    case 'failed':
      return (
        isErrorCode(outcome.code) &&
        (outcome.description === undefined || typeof outcome.description === 'string')
      )
    case 'pending':
      if (outcome.awaiting === 'customer') return accepts === 'customer' && isCustomerWait(outcome)
      return (
        accepts !== 'final' &&
        outcome.awaiting === 'processor' &&
        isDuration(outcome.afterMs) &&
        isAccepted(outcome.outcome, 'final')
      )
    default:
      return false
  }
}

/**
 * What a wait for the customer may add: an action the core knows how to show, a deadline and a
 * simulated answer that are durations (a `NaN` deadline would have no `expires_at` to show).
 */
function isCustomerWait(outcome: Record<string, unknown>): boolean {
  const { action, expiresAfterMs, customerAnswer } = outcome
  if (action !== undefined && !isCustomerAction(action)) return false
  if (expiresAfterMs !== undefined && !isDuration(expiresAfterMs)) return false
  if (customerAnswer === undefined) return true
  const answer = customerAnswer as Record<string, unknown> | null
  return (
    typeof answer === 'object' &&
    answer !== null &&
    isDuration(answer.afterMs) &&
    typeof answer.approved === 'boolean'
  )
}

function isCustomerAction(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false
  const { type, parameters } = value as Record<string, unknown>
  switch (type) {
    case 'approval_page':
      return true
    case 'app':
      return parameters === undefined || isParameters(parameters)
    case 'reference':
      return isParameters(parameters)
    default:
      return false
  }
}

/** What the customer is shown: names to strings or numbers. */
function isParameters(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every(
      (parameter) =>
        typeof parameter === 'string' ||
        (typeof parameter === 'number' && Number.isFinite(parameter)),
    )
  )
}

function isDuration(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
