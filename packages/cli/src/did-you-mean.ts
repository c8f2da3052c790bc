import { closestName } from '@chargekit/errors'
import { type EventFamily, eventTypeList, eventTypes } from '@chargekit/schemas'

// Words of other payment APIs (Stripe's `payment_intent.succeeded`, `charge.failed`) for what
// this service's names say: `payment.succeeded` is `payment.success` here.
const synonyms: Readonly<Record<string, string>> = {
  paymentintent: 'payment',
  succeeded: 'success',
  succeed: 'success',
  successful: 'success',
  completed: 'success',
  failed: 'error',
  failure: 'error',
  fail: 'error',
  authorised: 'authorized',
  authorise: 'authorized',
  authorize: 'authorized',
  create: 'created',
  confirm: 'confirmed',
  settle: 'settled',
}

/** `name` in this service's words: lower case, words joined by dots, synonyms replaced. */
function inOurWords(name: string): string {
  return name
    .toLowerCase()
    .replace(/payment[_-]?intent/g, 'paymentintent')
    .split(/[._\s-]+/)
    .filter((word) => word !== '')
    .map((word) => synonyms[word] ?? word)
    .join('.')
}

/**
 * The candidate `input` most likely means: a near miss (`refund.sucess`, `--evnts-url`), or the
 * same name in another payment API's words (`payment.succeeded`); undefined when none is close.
 */
export function closestCandidate(input: string, candidates: Iterable<string>): string | undefined {
  const names = [...candidates]
  const typo = closestName(input, names)
  if (typo !== undefined) return typo
  const ours = inOurWords(input)
  return names.find((name) => inOurWords(name) === ours) ?? closestName(ours, names)
}

/** `' (did you mean x?)'`, or nothing when no candidate is close. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const match = closestCandidate(input, candidates)
  return match === undefined ? '' : ` (did you mean ${match}?)`
}

const families = new Set<string>(Object.values(eventTypes).map((info) => info.family))

/**
 * What to say after an unknown event type: the type it most likely means, else, when it names an
 * object whose events exist (`charge.succeeded`), that object's event types.
 */
export function eventTypeHint(input: string): string {
  const hint = didYouMean(input, eventTypeList)
  if (hint !== '') return hint
  const [first = ''] = inOurWords(input).split('.')
  const family = closestName(first, families) as EventFamily | undefined
  if (family === undefined) return ''
  const types = eventTypeList.filter((type) => eventTypes[type].family === family)
  return ` (the ${family} events are ${types.join(', ')})`
}
