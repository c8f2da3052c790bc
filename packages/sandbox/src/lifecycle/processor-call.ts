import { designationOf } from '../api-problem'
import { type AcceptedOutcomes, describeValue, outcomeProblem } from '../processors/outcome-check'
import type { FailedOutcome } from '../processors/processor'
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
  const problem = outcomeProblem(outcome, accepts)
  if (problem === undefined) return outcome as AcceptedOutcomes[Accepts]
  deps.logger.error(
    `processor ${processorName} answered ${step} with a malformed outcome: ${problem}`,
    {
      outcome: describeValue(outcome),
    },
  )
  return { status: 'failed', code: '99.02.0001' }
}
