import { ChargekitError } from '@chargekit/errors'
import type * as z from 'zod/v4'
import { formatZodIssues } from './format-zod-issues'

const listedProblems = 3

/**
 * Data did not match a chargekit schema. `parameters` maps each dotted field path to what was
 * expected; `issues` keeps zod's raw issues.
 */
export class SchemaValidationError extends ChargekitError {
  override name = 'SchemaValidationError'
  readonly issues: readonly z.core.$ZodIssue[]
  readonly parameters: Record<string, string[]>

  /** `subject` names what was validated, e.g. "event" or "charge request". */
  constructor(subject: string, error: z.ZodError) {
    const parameters = formatZodIssues(error)
    const problems = Object.entries(parameters).map(
      ([path, messages]) => `${path}: ${messages.join('; ')}`,
    )
    const more =
      problems.length > listedProblems ? ` (and ${problems.length - listedProblems} more)` : ''
    super(
      `Invalid ${subject}: ${problems.slice(0, listedProblems).join(' | ')}${more}. ` +
        'Fix the listed fields; `parameters` on this error lists every problem by field path.',
      { cause: error },
    )
    this.issues = error.issues
    this.parameters = parameters
  }
}
