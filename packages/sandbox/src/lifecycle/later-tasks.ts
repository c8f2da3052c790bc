// The lifecycle's timed work, as data: what a step leaves for later (a processor's delayed
// answer, a customer's deadline, a settlement batch), stored with the event that announces it.
// How a task is carried out when due is `run-later-task.ts`, which imports every resource; this
// file imports none, so every resource can schedule through it.

import type { RequestLog } from '@chargekit/schemas'
import type { AwaitingProcessorOutcome, FinalOutcome } from '../processors/outcome'

/** The money movements: created pending, then confirmed or failed by the processor. */
export type MovementKind = 'payment' | 'refund' | 'reversal'

/**
 * The lifecycle's timed work, as the JSON stored in the work queue: everything needed to carry
 * it out is named here by id, and the objects are read again from the store when it is due, so
 * it survives a restart and can run in any sandbox process sharing the database.
 */
export type LaterTask =
  | {
      /** A processor's later answer to an authorization: the instrument leaves `pending`. */
      task: 'authorization-answer'
      chargeId: string
      instrumentId: string
      outcome: FinalOutcome
      /** Where the customer reached the sandbox (the instrument's request). */
      origin: string
      requestLog: RequestLog
    }
  | {
      /** The customer's deadline: an authorization still waiting for them expires. */
      task: 'customer-deadline'
      chargeId: string
      instrumentId: string
      origin: string
      requestLog: RequestLog
    }
  | {
      /** A simulated customer answers: approves (or pays the reference) or refuses. */
      task: 'simulated-customer'
      approved: boolean
      chargeId: string
      instrumentId: string
      origin: string
      requestLog: RequestLog
    }
  | {
      /** A processor's later answer to a capture, refund or reversal. */
      task: 'movement-answer'
      kind: MovementKind
      chargeId: string
      objectId: string
      outcome: FinalOutcome
      requestLog: RequestLog
    }
  | {
      /** The acquirer's settlement batch of these successful payments and refunds. */
      task: 'settlement'
      payments: readonly string[]
      refunds: readonly string[]
      requestLog: RequestLog
    }

/** A task and how long after now it is due, before `timeScale`. */
export interface LaterWork {
  task: LaterTask
  afterMs: number
}

type AnswerTask = Extract<LaterTask, { outcome: FinalOutcome }>
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

/**
 * The timed work that applies a pending outcome's answer after its delay, where `task` says:
 * stored with the step's `.pending` event, so the answer is never lost in between.
 */
export function answerLater(
  step: { requestLog: RequestLog },
  pending: AwaitingProcessorOutcome,
  task: DistributiveOmit<AnswerTask, 'outcome' | 'requestLog'>,
): LaterWork {
  const answer = { ...task, outcome: answerOf(pending), requestLog: step.requestLog }
  return { task: answer as AnswerTask, afterMs: pending.afterMs }
}

/**
 * The answer as the JSON it is stored as, whatever the store: the memory store keeps the very
 * object, and a processor must not be able to change a stored answer by changing its own.
 */
function answerOf({ outcome }: AwaitingProcessorOutcome): FinalOutcome {
  return JSON.parse(JSON.stringify(outcome)) as FinalOutcome
}
