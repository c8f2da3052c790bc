import { ApiProblem } from '../api-problem'
import type { AwaitingProcessorOutcome, FinalOutcome } from '../processors/processor'
import { type StepContext, withChargeLock } from './context'
import { callProcessor } from './processor-call'

/**
 * Applies a pending outcome's later answer: after its delay (scaled by `timeScale`) the
 * processor's `resolve()` runs (it must answer a final outcome) and `apply` records the result
 * under the charge's lock. A decline there has no request to answer: its object and `.error`
 * event are the whole result.
 */
export function applyLater(
  context: StepContext,
  chargeId: string,
  processorName: string,
  step: string,
  pending: AwaitingProcessorOutcome,
  apply: (outcome: FinalOutcome) => Promise<unknown>,
): void {
  context.deps.scheduler.after(pending.afterMs, async () => {
    const outcome = await callProcessor(
      context.deps,
      processorName,
      `${step} (resolve)`,
      () => pending.resolve(),
      'final',
    )
    await withChargeLock(context, chargeId, () => apply(outcome)).catch((error: unknown) => {
      if (!(error instanceof ApiProblem)) throw error
    })
  })
}
