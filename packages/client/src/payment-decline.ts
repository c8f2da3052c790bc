import type { ErrorCategoryName, ErrorCodeInfo } from '@chargekit/errors'
import type { ApiErrorDetails, DeclinedElement } from './errors'

/** Deepest first: a 402's metadata names the failed object and its parents. */
const elementsDeepestFirst: readonly DeclinedElement[] = [
  'refund',
  'reversal',
  'payment',
  'instrument',
  'charge',
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

/**
 * Which step a 402 declined and a message saying why. When the body names no object, the step
 * is the one the operation takes (`declines`, from the operation table).
 */
export function describeDecline(
  declines: DeclinedElement | undefined,
  /** The error body's `metadata`: the failed object's id and its parents'. */
  metadata: Readonly<Record<string, unknown>>,
  info: ErrorCodeInfo | undefined,
  details: ApiErrorDetails,
): {
  message: string
  element: DeclinedElement | undefined
  objectId: string | undefined
  ids: Partial<Record<DeclinedElement, string>>
} {
  const ids: Partial<Record<DeclinedElement, string>> = {}
  for (const candidate of elementsDeepestFirst) {
    const id = metadata[candidate]
    if (typeof id === 'string' && id !== '') ids[candidate] = id
  }
  let element = elementsDeepestFirst.find((candidate) => ids[candidate] !== undefined)
  const objectId = element === undefined ? undefined : ids[element]
  element ??= declines

  const what = `${capitalize(element ?? 'request')}${objectId === undefined ? '' : ` ${objectId}`}`
  const code = details.code ?? 'no failure code'
  const designation = details.designation ?? 'declined'
  const why = info === undefined ? '' : ` — ${info.description}`
  const category = details.category === undefined ? '' : ` (${details.category.replace('_', ' ')})`
  const next = details.category === undefined ? '' : ` ${nextStep[details.category]}`
  return {
    message: `${what} was declined: ${code} ${designation}${category}${why}.${next}`,
    element,
    objectId,
    ids,
  }
}

function capitalize(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
