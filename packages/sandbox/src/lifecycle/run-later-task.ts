// Carries out the lifecycle's timed work when it is due: the one place that knows every
// resource, so that none of them needs to know it (they schedule through `later-tasks.ts`).

import { SandboxError } from '../errors'
import type { ClaimedWork } from '../storage/work-queue'
import { type LifecycleDeps, type StepContext, withChargeLock } from './context'
import { answerAsCustomer } from './customer-challenges'
import { finishAuthorization } from './instruments'
import type { LaterTask, MovementKind } from './later-tasks'
import { LifecycleError } from './lifecycle-error'
import { finishMovement, type Movement } from './movement'
import { paymentMovement } from './payments'
import { refundMovement } from './refunds'
import { reversalMovement } from './reversals'
import { settleLater } from './settlements'

const movements: { [K in MovementKind]: Movement<K> } = {
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
        const movement = movements[task.kind] as Movement<MovementKind>
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
    if (!(error instanceof LifecycleError)) throw error
  }
}
