import { closestName } from '@chargekit/errors'

/** `' (did you mean "x"?)'`, or nothing when no candidate is close. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const match = closestName(input, candidates)
  return match === undefined ? '' : ` (did you mean ${match}?)`
}
