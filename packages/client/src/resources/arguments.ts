import { describeGiven } from '@chargekit/errors'
import { optionError } from '../option-checks'

/**
 * An id for a URL path: a non-empty string, percent-encoded so it stays one path segment. `.` and
 * `..` are refused: `encodeURIComponent` leaves them as they are and URL parsing then removes them
 * as dot segments, so `retrieve('.')` would send GET /v2/charges/ (the list) instead.
 */
export function pathId(where: string, name: string, value: unknown, example: string): string {
  if (typeof value !== 'string' || value === '') {
    throw optionError(
      where,
      `${name} must be a non-empty string such as "${example}" (got ${describeGiven(value)})`,
    )
  }
  if (value === '.' || value === '..') {
    throw optionError(
      where,
      `${name} must be an id such as "${example}", not ${describeGiven(value)}, which a URL reads as a path step`,
    )
  }
  return encodeURIComponent(value)
}

/** A request body or parameter object: a plain object (fields are checked by the service). */
export function paramsObject<T>(where: string, value: T, required: boolean): T {
  if (value === undefined && !required) return value
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw optionError(
      where,
      `params must be an object of request fields (got ${describeGiven(value)})`,
    )
  }
  return value
}
