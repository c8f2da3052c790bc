// What every lifecycle step runs with: the sandbox's dependencies, the charge's lock, atomic
// writes, and the one way to call a processor plug-in (its answer checked, its failure recorded).

import type { Charge, IntegrationWarning, RequestLog } from '@chargekit/schemas'
import type { Account } from '../accounts/accounts'
import { SandboxError } from '../errors'
import type { KeyedLock } from '../keyed-lock'
import type { SandboxLogger } from '../logger'
import type { ChargeType } from '../processors/charge-type'
import type { FailedOutcome } from '../processors/outcome'
import { type AcceptedOutcomes, describeValue, outcomeProblem } from '../processors/outcome-check'
import type { Processor, ProcessorContext } from '../processors/processor'
import type { ProcessorRegistry } from '../processors/processor-registry'
import type { SandboxStore } from '../storage/sandbox-store'
import type { RecordEvent } from './events'
import { designationOf, type Failure } from './lifecycle-error'

/** What every lifecycle step needs; built once per sandbox. */
export interface LifecycleDeps {
  store: SandboxStore
  processors: ProcessorRegistry
  /** By id: timed work names its account, and runs as that account when it is due. */
  accounts: ReadonlyMap<string, Account>
  locks: KeyedLock
  recordEvent: RecordEvent
  logger: SandboxLogger
  now(): Date
  /** Scales every processor and customer delay (0.001: a thousand times faster). */
  timeScale: number
  /** Declined cards one charge takes before it fails with 02.01.0000 Too Many Tries. */
  maxDeclinedInstruments: number
}

/** One step on behalf of one account; `requestLog` describes the request that caused it. */
export interface StepContext {
  deps: LifecycleDeps
  account: Account
  requestLog: RequestLog
  /**
   * Records a lenient reading only the step can make (a refund's amount computed in floating
   * point, read in its payment's currency) as an integration warning of the request. Absent
   * where no request is being answered (timed work).
   */
  warn?: (warning: IntegrationWarning) => void
}

/** Serializes every step of one charge's transaction (see {@link KeyedLock}). */
export function withChargeLock<T>(
  context: StepContext,
  chargeId: string,
  task: () => Promise<T>,
): Promise<T> {
  return context.deps.locks.run(`${context.account.id}:${chargeId}`, task)
}

/**
 * Writes a step's objects and its event (with the timed work it starts) as one, where the store
 * can: a crash between them would leave an object answered or pending with no event and no
 * scheduled answer, and a task run again would find nothing left to do. Only writes go in
 * here, never a processor call, which may take long while the transaction holds the database.
 */
export async function atomically<T>(context: StepContext, task: () => Promise<T>): Promise<T> {
  const { store } = context.deps
  return store.atomically === undefined ? task() : store.atomically(task)
}

/** The processor of the charge's channel (the first one it lists) and the context it is called with. */
export function processorOf(
  context: StepContext,
  charge: Charge,
): { processor: Processor; processorContext: ProcessorContext } {
  const channel = charge.channels?.[0]
  const processor =
    channel === undefined ? undefined : context.deps.processors.get(channel.processor)
  if (channel === undefined || processor === undefined) {
    throw new SandboxError(
      `Charge ${charge.id} has no channel with a registered processor; register the processor with startSandbox({ processors })`,
    )
  }
  return {
    processor,
    processorContext: { accountId: context.account.id, channel, charge },
  }
}

/** The definition of a charge's type (its instrument schema, label, whether it refunds). */
export function chargeTypeOf(context: StepContext, charge: Charge): ChargeType {
  const chargeType = context.deps.processors.chargeType(charge.charge_type)
  if (chargeType === undefined) {
    throw new SandboxError(
      `Charge ${charge.id} has charge type "${charge.charge_type}", which no registered processor defines; register it with startSandbox({ processors })`,
    )
  }
  return chargeType
}

/**
 * A new immutable snapshot with `changes` applied and, for objects that have one (charges,
 * instruments, payments, disputes), `updated_at` moved to now.
 */
export function revise<T extends object>(context: StepContext, object: T, changes: Partial<T>): T {
  const revised: T = { ...object, ...changes }
  if ('updated_at' in revised) revised.updated_at = context.deps.now().toISOString()
  return Object.freeze(revised)
}

/**
 * What a failed step records: the code, its catalogue designation as `failure_description`
 * (integrations compare it, so a processor never replaces it) and the processor's own text, if
 * it gave one.
 */
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
