import { closestName } from '@chargekit/errors'
import type { IntegrationWarning } from '@chargekit/schemas'
import {
  chargeRequestMetadataSchema,
  compareAmounts,
  expectedField,
  fieldDescription,
  wrappedSchema,
} from '@chargekit/schemas'
import type * as z from 'zod'
import { amountWithoutFloatNoise } from '../lifecycle/money'
import { fieldLabel } from './integration-warnings'

/** What reading a body reports: lenient readings as warnings, values it refuses as problems. */
export interface FieldReport {
  /** Called with a function, so a warning nobody keeps is never built. */
  warn(build: () => IntegrationWarning): void
  problem(field: string, message: string): void
}

type Path = readonly (string | number)[]

// Keys that would reach an object's prototype if copied carelessly; refused outright.
const forbiddenKeys: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

/** Plain decimal notation: an optional minus, digits, optionally a point and more digits. */
const numericText = /^-?\d+(?:\.\d+)?$/
// Longer text is never an amount or a month a JSON number could hold exactly; refusing it early
// also keeps the exact comparison cheap.
const maxNumericLength = 40

const booleanWords: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
])

/**
 * Reads a request body the way the production service does, guided by the request schema, and
 * returns the fields as the schema expects them:
 *
 * - a field the schema does not know is dropped (at every level the schema describes), with a
 *   warning that names it and, when a known field is close, suggests it;
 * - `null` for an optional field that does not take null means the field is absent;
 * - a string where the schema expects a number (and no string) is read as that number when it is
 *   plain decimal text ("20.5", "-3", "12"), exactly: text a JSON number cannot hold exactly is
 *   refused, so the schema's precision, maximum and integer rules judge the same value the
 *   merchant sent; other text is refused as not a number;
 * - a string where the schema expects a boolean: "true"/"1" and "false"/"0";
 * - an `amount` with more decimals than the `currency` beside it allows, which is an amount of
 *   that currency computed in floating point (`20.799999999999997`), is read as that amount;
 * - a charge's `metadata` sent as a string is kept as it is, with a warning;
 * - a `__proto__`, `constructor` or `prototype` key is refused wherever it appears.
 *
 * Everything else passes unchanged, for the schema to judge.
 */
export function readLenientFields(
  schema: z.ZodObject,
  fields: Record<string, unknown>,
  report: FieldReport,
): Record<string, unknown> {
  return readObject(schema._zod.def, fields, [], report)
}

function readValue(
  schema: z.core.$ZodType,
  value: unknown,
  path: Path,
  report: FieldReport,
): unknown {
  const def = unwrap(schema)._zod.def as z.core.$ZodTypes['_zod']['def']
  if (def.type === 'union') {
    const option = optionTaking(def, value)
    if (option !== undefined) return readValue(option, value, path, report)
    // The one union whose text is a lenience: a charge's metadata, an object by the documentation,
    // kept as text by the production service.
    if (typeof value === 'string' && unwrap(schema) === chargeRequestMetadataSchema) {
      report.warn(() => textMetadata(path))
    }
  }
  if (def.type === 'object' && isRecord(value)) return readObject(def, value, path, report)
  if (def.type === 'record' && isRecord(value)) return readRecord(def, value, path, report)
  if (def.type === 'array' && Array.isArray(value)) {
    return value.map((item, index) => readValue(def.element, item, [...path, index], report))
  }
  return typeof value === 'string' ? readString(schema, value, path, report) : value
}

function readObject(
  def: z.core.$ZodObjectDef,
  value: Record<string, unknown>,
  path: Path,
  report: FieldReport,
): Record<string, unknown> {
  const known = Object.keys(def.shape)
  // z.object leaves a missing catchall (unknown keys dropped), z.strictObject a never (refused):
  // both are "unknown" here. A looseObject's catchall takes any key and keeps it.
  const catchall = def.catchall?._zod.def.type === 'never' ? undefined : def.catchall
  const read = new Map<string, unknown>()
  for (const [key, item] of Object.entries(value)) {
    const at = [...path, key]
    if (refusedKey(key, at, report)) continue
    const field = Object.hasOwn(def.shape, key) ? def.shape[key] : catchall
    if (field === undefined) {
      report.warn(() => unknownField(at, known))
      continue
    }
    if (item === null && field._zod.optin === 'optional' && !acceptsNull(field)) {
      report.warn(() => {
        const label = fieldLabel(at)
        return {
          code: 'null_as_absent',
          field: label,
          message: `${label} is null: read as absent (the field is optional)`,
          instead: `no ${label} field`,
        }
      })
      continue
    }
    read.set(key, readValue(field, item, at, report))
  }
  if (Object.hasOwn(def.shape, 'amount') && Object.hasOwn(def.shape, 'currency')) {
    readAmountInCurrency(read, [...path, 'amount'], report)
  }
  // Built from entries: a key never reaches a prototype (forbidden ones were refused above).
  return Object.fromEntries(read)
}

/**
 * The union option that takes an object or an array as the body has it (a charge's metadata
 * as an object), so its fields are read as that option describes them; undefined for any other
 * value, or when no single option takes it.
 */
function optionTaking(def: z.core.$ZodUnionDef, value: unknown): z.core.$ZodType | undefined {
  const kind = isRecord(value) ? ['object', 'record'] : Array.isArray(value) ? ['array'] : []
  const options = def.options.filter((option) =>
    kind.includes((unwrap(option)._zod.def as z.core.$ZodTypeDef).type),
  )
  return options.length === 1 ? options[0] : undefined
}

/** Replaces an `amount` computed in floating point by the amount of `currency` it stands for. */
function readAmountInCurrency(read: Map<string, unknown>, path: Path, report: FieldReport): void {
  const amount = read.get('amount')
  const currency = read.get('currency')
  if (typeof amount !== 'number' || typeof currency !== 'string') return
  const warn = (warning: IntegrationWarning) => report.warn(() => warning)
  read.set('amount', amountWithoutFloatNoise(amount, currency, fieldLabel(path), warn))
}

function textMetadata(path: Path): IntegrationWarning {
  const label = fieldLabel(path)
  return {
    code: 'string_metadata',
    field: label,
    message: `${label} is a string: kept and returned exactly as sent, but the event and charge searches (metadata[key]=value) cannot match it`,
    instead: `${label} as an object of flat values, such as {"order_id": "1001"}`,
  }
}

function readRecord(
  def: z.core.$ZodRecordDef,
  value: Record<string, unknown>,
  path: Path,
  report: FieldReport,
): Record<string, unknown> {
  const read = new Map<string, unknown>()
  for (const [key, item] of Object.entries(value)) {
    const at = [...path, key]
    if (!refusedKey(key, at, report)) read.set(key, readValue(def.valueType, item, at, report))
  }
  return Object.fromEntries(read)
}

function readString(
  schema: z.core.$ZodType,
  text: string,
  path: Path,
  report: FieldReport,
): unknown {
  const kinds = acceptedKinds(schema)
  if (kinds.has('string')) return text
  const label = fieldLabel(path)
  if (kinds.has('number')) {
    const number = readNumericText(text)
    if (number === 'not a number') {
      if (kinds.has('boolean') && booleanWords.has(text)) return readBoolean(text, label, report)
      const description = fieldDescription(schema)
      report.problem(
        label,
        description === undefined
          ? 'Expected a number, such as 20.5 (or decimal text, such as "20.5")'
          : expectedField(description),
      )
      return text
    }
    if (number === 'inexact') {
      report.problem(
        label,
        'Expected at most 15 significant digits: a longer number cannot be held exactly',
      )
      return text
    }
    report.warn(() => ({
      code: 'numeric_string',
      field: label,
      message: `${label} is a string holding a number: read as that number, exactly`,
      instead: `${label} as a JSON number`,
    }))
    return number
  }
  if (kinds.has('boolean') && booleanWords.has(text)) return readBoolean(text, label, report)
  return text
}

function readBoolean(text: string, label: string, report: FieldReport): boolean {
  report.warn(() => ({
    code: 'boolean_string',
    field: label,
    message: `${label} is the string "${text}": read as ${booleanWords.get(text)}`,
    instead: `${label} as JSON true or false`,
  }))
  return booleanWords.get(text) === true
}

/**
 * The number plain decimal text stands for, when a JSON number holds it exactly ("20.5" → 20.5,
 * "12.0" → 12); `'inexact'` when it does not ("0.10000000000000000001"); `'not a number'` for
 * any other text ("abc", "1e3", " 20", "").
 */
export function readNumericText(text: string): number | 'inexact' | 'not a number' {
  if (!numericText.test(text)) return 'not a number'
  if (text.length > maxNumericLength) return 'inexact'
  const number = Number(text)
  return compareAmounts(text, number) === 0 ? number : 'inexact'
}

type Kind = 'string' | 'number' | 'boolean' | 'other'

/** The JSON value kinds a schema accepts, looking through wrappers and unions. */
function acceptedKinds(schema: z.core.$ZodType, kinds = new Set<Kind>()): Set<Kind> {
  const def = unwrap(schema)._zod.def as z.core.$ZodTypes['_zod']['def']
  switch (def.type) {
    case 'string':
    case 'enum':
    case 'template_literal':
    // Anything goes: a string is as good as a number there, so nothing is converted.
    case 'unknown':
    case 'any':
      kinds.add('string')
      break
    case 'number':
      kinds.add('number')
      break
    case 'boolean':
      kinds.add('boolean')
      break
    case 'literal':
      for (const literal of def.values) {
        const kind = typeof literal
        kinds.add(kind === 'string' || kind === 'number' || kind === 'boolean' ? kind : 'other')
      }
      break
    case 'union':
      for (const option of def.options) acceptedKinds(option, kinds)
      break
    default:
      kinds.add('other')
  }
  return kinds
}

/** The schema under optional, nullable, default… wrappers, and the input side of a pipe. */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema
  for (let inner = wrappedSchema(current); inner !== undefined; inner = wrappedSchema(current)) {
    current = inner
  }
  return current
}

function acceptsNull(schema: z.core.$ZodType): boolean {
  return (schema as z.ZodType).safeParse(null).success
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function unknownField(path: Path, known: readonly string[]): IntegrationWarning {
  const label = fieldLabel(path)
  const key = String(path.at(-1))
  const suggestion = closestName(key, known)
  if (suggestion !== undefined) {
    const suggested = fieldLabel([...path.slice(0, -1), suggestion])
    return {
      code: 'unknown_field',
      field: label,
      message: `Unknown field ${label} ignored: did you mean ${suggested}?`,
      instead: suggested,
    }
  }
  const expected =
    known.length === 0 ? 'this request takes no fields' : `expected only ${known.join(', ')}`
  return {
    code: 'unknown_field',
    field: label,
    message: `Unknown field ${label} ignored: ${expected}`,
    instead: `no ${label} field`,
  }
}

/** Reports a key that would reach an object's prototype if copied carelessly; true when refused. */
function refusedKey(key: string, at: Path, report: FieldReport): boolean {
  if (!forbiddenKeys.has(key)) return false
  report.problem(fieldLabel(at), 'Expected a key that is not __proto__, constructor or prototype')
  return true
}
