// The lifecycle's timed work: what a step leaves for later (a processor's delayed answer, a
// customer's deadline, a settlement batch), stored with the event that announces it, and how
// it is carried out when due.

import type { RequestLog } from '@chargekit/schemas'
import { ApiProblem } from '../api-problem'
import { SandboxError } from '../errors'
import type { AwaitingProcessorOutcome, FinalOutcome } from '../processors/processor'
import type { ClaimedWork } from '../storage/work-queue'
import { type LifecycleDeps, type StepContext, withChargeLock } from './context'
import { answerAsCustomer, finishAuthorization } from './instruments'
import { finishMovement, type Movement, type MovementKinds, paymentMovement } from './payments'
import { refundMovement } from './refunds'
import { reversalMovement } from './reversals'
import { settleLater } from './settlements'

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
      kind: keyof MovementKinds
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

const movements: { [K in keyof MovementKinds]: Movement<K> } = {
  payment: paymentMovement,
  refund: refundMovement,
  reversal: reversalMovement,
}

/**
 * Carries out one claimed task on behalf of its account. Each task checks the state it applies
 * to (an answer only to a step still pending, a settlement only of what is unsettled), so one
 * run a second time after a crash changes nothing. A decline has no request to answer: its
 * object and `.error` event are the whole result.
 */
export async function runLaterTask(deps: LifecycleDeps, work: ClaimedWork): Promise<void> {
  const account = deps.accounts.get(work.accountId)
  if (account === undefined) {
    deps.logger.warn('timed work of an account this sandbox does not have was dropped', {
      account: work.accountId,
    })
    return
  }
  const task = work.payload as LaterTask
  const context: StepContext = { deps, account, requestLog: task.requestLog }
  try {
    switch (task.task) {
      case 'authorization-answer':
        await withChargeLock(context, task.chargeId, () =>
          finishAuthorization(context, task.instrumentId, task.outcome, task.origin),
        )
        return
      case 'customer-deadline':
        await answerAsCustomer(context, task.instrumentId, 'expire', {
          origin: task.origin,
          strict: false,
        })
        return
      case 'simulated-customer': {
        const challenge = await deps.store.getChallenge(task.instrumentId)
        // A reference is approved by paying it; one nobody pays just expires.
        const answer = !task.approved
          ? 'decline'
          : challenge?.action === 'reference'
            ? 'pay'
            : 'approve'
        await answerAsCustomer(context, task.instrumentId, answer, {
          origin: task.origin,
          strict: false,
        })
        return
      }
      case 'movement-answer': {
        const movement = movements[task.kind] as Movement<keyof MovementKinds>
        await withChargeLock(context, task.chargeId, async () => {
          const object = await deps.store.getObject(account.id, task.kind, task.objectId)
          if (object?.status !== 'pending') return
          await finishMovement(context, movement, object, task.outcome)
        })
        return
      }
      case 'settlement':
        await settleLater(context, task)
        return
      default:
        // Stored by another version of the sandbox, or damaged: nothing here knows how to run it.
        throw new SandboxError(`Unknown timed lifecycle task ${JSON.stringify(work.payload)}`)
    }
  } catch (error) {
    if (!(error instanceof ApiProblem)) throw error
  }
}

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
