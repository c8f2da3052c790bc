import type { ErrorCategoryName, ErrorCodeInfo } from '@chargekit/errors'
import type { ErrorFields } from './error-from-response'
import { type ApiErrorDetails, type DeclinedElement, PaymentError } from './errors'

/** Deepest first: a 402's metadata names the failed object and its parents (contract.md). */
const elementsDeepestFirst: readonly DeclinedElement[] = [
  'refund',
  'reversal',
  'payment',
  'instrument',
  'charge',
]

/** When the body names no object, the endpoint says which step was attempted. */
const elementByPath: readonly [RegExp, DeclinedElement][] = [
  [/^\/v2\/instruments\/[^/]+\/reversal$/, 'reversal'],
  [/^\/v2\/payments\/[^/]+\/refund$/, 'refund'],
  [/^\/v2\/charges$/, 'charge'],
  [/^\/v2\/instruments$/, 'instrument'],
  [/^\/v2\/payments$/, 'payment'],
]

/** What to do next, per category of the catalogue. */
const nextStep: Record<ErrorCategoryName, string> = {
  validation: 'Fix the data sent, then try again.',
  soft_decline: 'A later attempt may succeed.',
  hard_decline:
    'Do not retry unchanged: most need the issuer or the customer to fix the cause first.',
  communication:
    'The processor could not confirm the step: check the object, then retry if it did not go through.',
  implementation: 'The integration or channel is misconfigured: fix it before retrying.',
  risk: 'Flagged as possible fraud: do not retry.',
  unhandled: 'Unexpected failure: quote the request id if it persists.',
}

/** Reads which step a 402 declined and why, and says so in a {@link PaymentError}. */
export function paymentErrorFrom(
  path: string,
  fields: ErrorFields,
  info: ErrorCodeInfo | undefined,
  details: ApiErrorDetails,
  context: { suffix: string; redact: (text: string) => string },
): PaymentError {
  let element: DeclinedElement | undefined
  let objectId: string | undefined
  for (const candidate of elementsDeepestFirst) {
    const id = fields.metadata[candidate]
    if (typeof id === 'string' && id !== '') {
      element = candidate
      objectId = id
      break
    }
  }
  element ??= elementByPath.find(([pattern]) => pattern.test(path))?.[1]

  const what = `${capitalize(element ?? 'request')}${objectId === undefined ? '' : ` ${objectId}`}`
  const code = details.code ?? 'no failure code'
  const designation = details.designation ?? 'declined'
  const why = info === undefined ? '' : ` — ${info.description}`
  const category = details.category === undefined ? '' : ` (${details.category.replace('_', ' ')})`
  const next = details.category === undefined ? '' : ` ${nextStep[details.category]}`
  return new PaymentError(
    context.redact(`${what} was declined: ${code} ${designation}${category}${why}.${next}`) +
      context.suffix,
    details,
    {
      element,
      objectId,
      failureDescription: fields.failureDescription,
      retryable: info?.retryable ?? false,
    },
  )
}

function capitalize(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
