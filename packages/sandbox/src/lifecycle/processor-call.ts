import { isErrorCode } from '@chargekit/errors'
import { designationOf } from '../api-problem'
import type {
  AwaitingProcessorOutcome,
  FailedOutcome,
  FinalOutcome,
  Outcome,
} from '../processors/processor'
import type { LifecycleDeps } from './context'

type MaybePromise<T> = T | Promise<T>

/** What a failed step records: the code and its description. */
export interface Failure {
  code: string
  description: string
}

export function failureOf(outcome: FailedOutcome): Failure {
  return { code: outcome.code, description: outcome.description ?? designationOf(outcome.code) }
}

/**
 * Calls a processor plug-in and checks its answer. A processor that throws fails the step with
 * 99.02.0004 (Processor Unhandled Error), one that answers something malformed with 99.02.0001
 * (Unexpected Processor Response): the sandbox records the failure like any decline and logs
 * the cause, instead of answering 500.
 */
export async function callProcessor(
  deps: LifecycleDeps,
  processorName: string,
  step: string,
  run: () => MaybePromise<Outcome>,
  options: { customerAction: boolean },
): Promise<Outcome> {
  let outcome: unknown
  try {
    outcome = await run()
  } catch (error) {
    deps.logger.error(`processor ${processorName} threw in ${step}`, { error })
    return { status: 'failed', code: '99.02.0004' }
  }
  if (isValidOutcome(outcome, options.customerAction)) return outcome
  deps.logger.error(`processor ${processorName} answered ${step} with a malformed outcome`, {
    outcome: describe(outcome),
  })
  return { status: 'failed', code: '99.02.0001' }
}

/** Runs the later answer of a pending outcome (`resolve()`), with the same checks. */
export async function resolvePending(
  deps: LifecycleDeps,
  processorName: string,
  step: string,
  pending: AwaitingProcessorOutcome,
): Promise<FinalOutcome> {
  const outcome = await callProcessor(deps, processorName, step, () => pending.resolve(), {
    customerAction: false,
  })
  if (outcome.status !== 'pending') return outcome
  deps.logger.error(`processor ${processorName} resolved ${step} with another pending outcome`)
  return { status: 'failed', code: '99.02.0001' }
}

function isValidOutcome(value: unknown, customerAction: boolean): value is Outcome {
  if (typeof value !== 'object' || value === null) return false
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
      if (outcome.awaiting === 'customer') return customerAction
      return (
        outcome.awaiting === 'processor' &&
        typeof outcome.afterMs === 'number' &&
        Number.isFinite(outcome.afterMs) &&
        outcome.afterMs >= 0 &&
        typeof outcome.resolve === 'function'
      )
    default:
      return false
  }
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}
