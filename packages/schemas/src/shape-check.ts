import { rootIssueKey } from './format-zod-issues'

/**
 * Where a failing check writes: the issue map being built, the dotted path of the value checked,
 * and how many issues so far stop zod from running an object's refinements (a wrong type or
 * value; a broken bound or format does not). Absent on the fast path, which only answers "valid
 * or not" and allocates nothing.
 */
interface IssueSink {
  readonly issues: Record<string, string[]>
  readonly path: string
  readonly tally: { blocking: number }
}

declare const checks: unique symbol

/**
 * A compiled check of one JSON value: true when it passes. Given a sink, it goes on past the
 * first failure and records every problem, worded as `formatZodIssues` words zod's. `T` is the
 * type a passing value has; it only links a shape to its type at compile time.
 */
export type Shape<T = unknown> = ((value: unknown, sink?: IssueSink) => boolean) & {
  readonly [checks]?: T
}

export type ShapeResult = { success: true } | { success: false; issues: Record<string, string[]> }

const passed: ShapeResult = Object.freeze({ success: true })

/**
 * Checks a parsed JSON value against a shape. The pass over a valid value builds nothing; only a
 * failing value is walked again, to name each field that failed and why.
 */
export function checkShape(shape: Shape, value: unknown): ShapeResult {
  if (shape(value)) return passed
  const issues: Record<string, string[]> = {}
  shape(value, { issues, path: '', tally: { blocking: 0 } })
  return { success: false, issues }
}

function report(sink: IssueSink, message: string, blocking = false): false {
  if (blocking) sink.tally.blocking++
  const key = sink.path === '' ? rootIssueKey : sink.path
  const messages = sink.issues[key]
  if (messages === undefined) sink.issues[key] = [message]
  else if (!messages.includes(message)) messages.push(message)
  return false
}

function at(sink: IssueSink | undefined, key: string | number): IssueSink | undefined {
  if (sink === undefined) return undefined
  const path = sink.path === '' ? `${key}` : `${sink.path}.${key}`
  return { issues: sink.issues, path, tally: sink.tally }
}

function receivedType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value)
  return typeof value
}

function wrongType(sink: IssueSink | undefined, expected: string, value: unknown): false {
  if (sink === undefined) return false
  return report(
    sink,
    value === undefined
      ? `Required: expected ${expected}`
      : `Expected ${expected}, received ${receivedType(value)}`,
    true,
  )
}

export const unknown: Shape = () => true

export const boolean: Shape = (value, sink) =>
  typeof value === 'boolean' || wrongType(sink, 'boolean', value)

export const string: Shape = (value, sink) =>
  typeof value === 'string' || wrongType(sink, 'string', value)

/** A string that passes `rule`, or `message` where it does not. */
export function refinedString(rule: (text: string) => boolean, message: string): Shape {
  return (value, sink) => {
    if (typeof value !== 'string') return wrongType(sink, 'string', value)
    return rule(value) || (sink !== undefined && report(sink, message))
  }
}

/** A string that `pattern` matches, or `message` where it does not. */
export function matching(pattern: RegExp, message: string): Shape {
  return refinedString((text) => pattern.test(text), message)
}

export interface NumberRules {
  /** A whole number (and a safe integer). */
  int?: true
  min?: number
  /** Strictly greater than. */
  above?: number
  max?: number
}

/** A bound's own message, where the schema words it rather than zod. */
export type NumberMessages = { [Rule in 'min' | 'above' | 'max']?: string }

type Bound = readonly [passes: (value: number) => boolean, message: string]

/** A finite number within its rules; every broken bound is reported, as zod does. */
export function number(
  { int, min, above, max }: NumberRules = {},
  messages: NumberMessages = {},
): Shape {
  const bounds: Bound[] = []
  if (int) {
    bounds.push(
      [
        (n) => n >= Number.MIN_SAFE_INTEGER,
        `Too small: expected int to be >=${Number.MIN_SAFE_INTEGER}`,
      ],
      [
        (n) => n <= Number.MAX_SAFE_INTEGER,
        `Too big: expected int to be <=${Number.MAX_SAFE_INTEGER}`,
      ],
    )
  }
  if (min !== undefined) {
    bounds.push([(n) => n >= min, messages.min ?? `Too small: expected number to be >=${min}`])
  }
  if (above !== undefined) {
    bounds.push([(n) => n > above, messages.above ?? `Too small: expected number to be >${above}`])
  }
  if (max !== undefined) {
    bounds.push([(n) => n <= max, messages.max ?? `Too big: expected number to be <=${max}`])
  }
  return (value, sink) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return wrongType(sink, 'number', value)
    }
    if (int && !Number.isInteger(value)) return wrongType(sink, 'int', value)
    let valid = true
    for (const [passes, message] of bounds) {
      if (passes(value)) continue
      if (sink === undefined) return false
      valid = report(sink, message)
    }
    return valid
  }
}

/** Exactly `expected`. */
export function literal(expected: string): Shape {
  const message = `Expected ${JSON.stringify(expected)}`
  return (value, sink) => value === expected || (sink !== undefined && report(sink, message, true))
}

/** One of `values`. */
export function oneOf(values: readonly string[]): Shape {
  const known: ReadonlySet<unknown> = new Set(values)
  const message = `Invalid option: expected one of ${values.map((v) => JSON.stringify(v)).join('|')}`
  return (value, sink) => known.has(value) || (sink !== undefined && report(sink, message, true))
}

/** Passes when any option passes; otherwise one issue for the value as a whole. */
export function union(options: readonly Shape[]): Shape {
  return (value, sink) => {
    for (const option of options) if (option(value)) return true
    return sink !== undefined && report(sink, 'Invalid input', true)
  }
}

export function nullable(inner: Shape): Shape {
  return (value, sink) => value === null || inner(value, sink)
}

export function optional(inner: Shape): Shape {
  return (value, sink) => value === undefined || inner(value, sink)
}

export function array(element: Shape): Shape {
  return (value, sink) => {
    if (!Array.isArray(value)) return wrongType(sink, 'array', value)
    let valid = true
    for (let index = 0; index < value.length; index++) {
      if (!element(value[index], at(sink, index))) {
        if (sink === undefined) return false
        valid = false
      }
    }
    return valid
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** An object with string keys, every value passing `values`. */
export function record(values: Shape): Shape {
  return (value, sink) => {
    if (!isPlainObject(value)) return wrongType(sink, 'record', value)
    let valid = true
    for (const key in value) {
      if (Object.hasOwn(value, key) && !values(value[key], at(sink, key))) {
        if (sink === undefined) return false
        valid = false
      }
    }
    return valid
  }
}

/**
 * A check of a whole object, run unless a field has the wrong type or value (as zod runs an
 * object's refinements): it returns each failing field with its message.
 */
export type ObjectRule = (
  value: Record<string, unknown>,
) => readonly (readonly [field: string, message: string])[]

/** An object with these fields; other fields are allowed and kept. */
export function object(fields: Record<string, Shape>, rule?: ObjectRule): Shape {
  const entries = Object.entries(fields)
  return (value, sink) => {
    if (!isPlainObject(value)) return wrongType(sink, 'object', value)
    const blockingBefore = sink?.tally.blocking ?? 0
    let valid = true
    for (const [key, field] of entries) {
      if (!field(value[key], at(sink, key))) {
        if (sink === undefined) return false
        valid = false
      }
    }
    if (rule === undefined || (sink?.tally.blocking ?? 0) > blockingBefore) return valid
    const problems = rule(value)
    if (sink !== undefined) {
      for (const [field, message] of problems) report(at(sink, field) as IssueSink, message)
    }
    return valid && problems.length === 0
  }
}
