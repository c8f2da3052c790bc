// What a lifecycle step refuses, as data: the API answers it with a status and a body, another
// caller (a CLI, a worker) reads the same fields. The lifecycle knows nothing of HTTP.

import { lookupErrorCode } from '@chargekit/errors'
import { SandboxError } from '../errors'

/**
 * Why a step was refused:
 * - `invalid_parameters`: a field of the request is not what the step takes (01.01.0000).
 * - `not_found`: no object with that id in this account.
 * - `conflict`: the step is not legal in the object's current state (a catalogue code says why).
 * - `declined`: the processor declined or failed the step; the failed object is stored.
 */
export type LifecycleErrorCode = 'invalid_parameters' | 'not_found' | 'conflict' | 'declined'

export interface LifecycleErrorOptions {
  /** The catalogue code (`05.04.0001`); absent for `not_found`. */
  failureCode?: string
  /** Reported beside the code; the catalogue's designation unless the object carries its own. */
  failureDescription?: string
  /** `invalid_parameters`: each field path and what was expected there. */
  parameters?: Record<string, string[]>
  /** `declined`: the failed object's id and its parents' (`{ charge, instrument }`). */
  objects?: Record<string, string>
  /** `declined`: the processor's own words about the decline, beside the designation. */
  processorMessage?: string
}

/** The one error the lifecycle throws for a request it refuses; anything else is a bug. */
export class LifecycleError extends SandboxError {
  readonly code: LifecycleErrorCode
  readonly failureCode: string | undefined
  readonly failureDescription: string | undefined
  readonly parameters: Readonly<Record<string, string[]>> | undefined
  readonly objects: Readonly<Record<string, string>> | undefined
  readonly processorMessage: string | undefined

  constructor(code: LifecycleErrorCode, message: string, options: LifecycleErrorOptions = {}) {
    super(message)
    this.name = 'LifecycleError'
    this.code = code
    this.failureCode = options.failureCode
    this.failureDescription =
      options.failureDescription ??
      (options.failureCode === undefined ? undefined : designationOf(options.failureCode))
    this.parameters = options.parameters
    this.objects = options.objects
    this.processorMessage = options.processorMessage
  }
}

/** The catalogue's designation of a code, reported as `failure_description`. */
export function designationOf(code: string): string {
  return lookupErrorCode(code)?.designation ?? 'Unspecified Error'
}

/** 01.01.0000 for the fields named: each field path and what was expected there. */
export function invalidParameters(parameters: Record<string, string[]>): LifecycleError {
  return new LifecycleError(
    'invalid_parameters',
    'Invalid request parameters: see `parameters` for each field and what was expected',
    { failureCode: '01.01.0000', parameters },
  )
}

/** 01.01.0000 for one field and what was expected there. */
export function invalidField(field: string, expected: string): LifecycleError {
  return invalidParameters({ [field]: [expected] })
}

export function notFound(kind: string, id: string): LifecycleError {
  return new LifecycleError('not_found', `No ${kind} with id ${JSON.stringify(id)} in this account`)
}

/** The step is not legal in the object's current state; `code` is the closest catalogue code. */
export function conflict(code: string, message: string): LifecycleError {
  return new LifecycleError('conflict', message, { failureCode: code })
}

/** A failure as a step records it: the code, its designation and the processor's own text. */
export interface Failure {
  code: string
  description: string
  message?: string
}

/** The processor declined or failed a step; `objects` names the failed object and its parents. */
export function declined(
  { code, description, message }: Failure,
  objects: Record<string, string>,
): LifecycleError {
  return new LifecycleError('declined', `Transaction Error: ${code} ${description}`, {
    failureCode: code,
    failureDescription: description,
    objects,
    ...(message === undefined ? {} : { processorMessage: message }),
  })
}
