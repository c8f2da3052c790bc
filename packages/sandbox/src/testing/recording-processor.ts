import { type AcceptedOutcomes, describeValue, outcomeProblem } from '../processors/outcome-check'
import type { Processor, ProcessorContext } from '../processors/processor'

/** The processor methods the sandbox calls, and the outcomes each may answer. */
const methods = {
  onCharge: 'final',
  authorize: 'customer',
  completeChallenge: 'final',
  capture: 'later',
  refund: 'later',
  reverse: 'later',
} as const satisfies Record<string, keyof AcceptedOutcomes>

export type ProcessorMethod = keyof typeof methods

/** One call the sandbox made to the processor, and what came back. */
export interface ProcessorCall {
  readonly method: ProcessorMethod
  readonly chargeId: string
  /** The answer, as returned (awaited). */
  readonly answer?: unknown
  /** What it threw instead of answering. */
  readonly thrown?: unknown
  /** What is wrong with the answer, in words for the processor's author. */
  readonly problem?: string
}

export interface RecordingProcessor {
  /** The processor to register: the same decisions, each call recorded. */
  readonly processor: Processor
  /** The calls made for one charge, oldest first. */
  callsFor(chargeId: string, method?: ProcessorMethod): ProcessorCall[]
}

/**
 * Wraps a processor so the kit sees what it answered: the sandbox turns a malformed answer into
 * a 99.02.0001 decline and a throw into 99.02.0004, which tells the merchant something failed
 * but not the processor's author what to change.
 */
export function recordingProcessor(processor: Processor): RecordingProcessor {
  const calls: ProcessorCall[] = []
  const wrapped: Record<string, unknown> = { ...processor }
  for (const [method, accepts] of Object.entries(methods) as [
    ProcessorMethod,
    keyof AcceptedOutcomes,
  ][]) {
    const original = processor[method] as ((...args: unknown[]) => unknown) | undefined
    // An absent optional method keeps its default behaviour.
    if (typeof original !== 'function') continue
    wrapped[method] = async (context: ProcessorContext, request: unknown) => {
      const chargeId = context.charge.id
      try {
        const answer = await original.call(processor, context, request)
        const problem = outcomeProblem(answer, accepts)
        calls.push(
          problem === undefined
            ? { method, chargeId, answer }
            : { method, chargeId, answer, problem },
        )
        return answer
      } catch (error) {
        calls.push({ method, chargeId, thrown: error, problem: `threw ${describeError(error)}` })
        throw error
      }
    }
  }
  return {
    processor: wrapped as unknown as Processor,
    callsFor: (chargeId, method) =>
      calls.filter(
        (call) => call.chargeId === chargeId && (method === undefined || call.method === method),
      ),
  }
}

/** `method() answered {…}: the problem`, for a call whose answer was wrong. */
export function describeCall(call: ProcessorCall): string {
  if (call.thrown !== undefined) {
    return `${call.method}() threw ${describeError(call.thrown)}: a processor decides outcomes and does not throw; answer { status: 'failed', code } to decline`
  }
  return `${call.method}() answered ${describeValue(call.answer)}${call.problem === undefined ? '' : `: ${call.problem}`}`
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : describeValue(error)
}
