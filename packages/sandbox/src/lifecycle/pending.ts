import type { AwaitingProcessorOutcome, FinalOutcome } from '../processors/processor'
import type { StepContext } from './context'
import type { LaterTask, LaterWork } from './later-work'

type AnswerTask = Extract<LaterTask, { outcome: FinalOutcome }>
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

/**
 * The timed work that applies a pending outcome's answer after its delay, where `task` says:
 * stored with the step's `.pending` event, so the answer is never lost in between.
 */
export function answerLater(
  context: StepContext,
  pending: AwaitingProcessorOutcome,
  task: DistributiveOmit<AnswerTask, 'outcome' | 'requestLog'>,
): LaterWork {
  const answer = { ...task, outcome: answerOf(pending), requestLog: context.requestLog }
  return { task: answer as AnswerTask, afterMs: pending.afterMs }
}

/**
 * The answer as the JSON it is stored as, whatever the store: the memory store keeps the very
 * object, and a processor must not be able to change a stored answer by changing its own.
 */
function answerOf({ outcome }: AwaitingProcessorOutcome): FinalOutcome {
  return JSON.parse(JSON.stringify(outcome)) as FinalOutcome
}
