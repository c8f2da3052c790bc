// Writes src/response-shapes.ts: the response schemas of this package compiled into shape checks
// (src/shape-check.ts) that need no zod, so the client can check every answer in a bundle a
// fraction of zod's size. Run after changing a response schema: pnpm generate:shapes
// (test/response-shapes.test.ts fails while the file is stale).
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import * as z from 'zod/v4'
import { checkedAmountFieldsOf } from '../src/amount-precision'
import { isKnownCurrency } from '../src/currency-codes'
import { formatZodIssues } from '../src/format-zod-issues'
import * as schemas from '../src/index'
import { redirectSchema } from '../src/instrument'
import { integrationWarningCodeSchema } from '../src/recorded-request'
import { settlementTotalSchema } from '../src/settlement'

export const responseShapesFile = new URL('../src/response-shapes.ts', import.meta.url)

/** The schemas the generated file exports, as `<name>Shape`, with the type a passing value has. */
const roots = {
  charge: [schemas.chargeSchema, 'Charge'],
  chargeTypeList: [schemas.chargeTypeListSchema, 'ChargeTypeList'],
  instrument: [schemas.instrumentSchema, 'Instrument'],
  payment: [schemas.paymentSchema, 'Payment'],
  refund: [schemas.refundSchema, 'Refund'],
  reversal: [schemas.reversalSchema, 'Reversal'],
  settlement: [schemas.settlementSchema, 'Settlement'],
  dispute: [schemas.disputeSchema, 'Dispute'],
  recordedRequest: [schemas.recordedRequestSchema, 'RecordedRequest'],
  genericEvent: [schemas.eventSchema, 'GenericEvent'],
  // A list page with its items left open: each item is checked with its own shape.
  listEnvelope: [schemas.listEnvelopeSchema(z.unknown()), 'ListEnvelope<unknown>'],
} satisfies Record<string, [z.ZodType, string]>

type Def = z.core.$ZodTypeDef & Record<string, unknown>

/** The helpers src/money-checks.ts holds; the others are src/shape-check.ts's. */
const moneyChecks: ReadonlySet<string> = new Set(['amountsInMinorUnits', 'currency'])

const defOf = (schema: z.ZodType) => schema._zod.def as Def

/**
 * The package's own names for its schemas (`timestampSchema` → `timestamp`), for readable output:
 * the main entry's, and those of parts it does not export on their own.
 */
function exportedNames(): Map<z.ZodType, string> {
  const names = new Map<z.ZodType, string>()
  const named = { ...schemas, redirectSchema, integrationWarningCodeSchema, settlementTotalSchema }
  for (const [name, value] of Object.entries(named)) {
    if (name.endsWith('Schema') && typeof value === 'object' && value !== null && '_zod' in value) {
      names.set(value as z.ZodType, name.slice(0, -'Schema'.length))
    }
  }
  return names
}

function childrenOf(schema: z.ZodType): z.ZodType[] {
  const def = defOf(schema)
  switch (def.type) {
    case 'object':
      return Object.values(def.shape as Record<string, z.ZodType>)
    case 'array':
      return [def.element as z.ZodType]
    case 'record':
      return [def.valueType as z.ZodType]
    case 'nullable':
    case 'optional':
      return [def.innerType as z.ZodType]
    case 'union':
      return def.options as z.ZodType[]
    default:
      return []
  }
}

class ShapeWriter {
  readonly #names = exportedNames()
  readonly #uses = new Map<z.ZodType, number>()
  readonly #declared = new Map<z.ZodType, string>()
  /** Objects whose fields are declared on their own, for the objects that extend them. */
  readonly #fieldSets = new Map<z.ZodType, string>()
  readonly declarations: string[] = []
  /** The helpers of src/shape-check.ts and src/money-checks.ts the declarations use. */
  readonly helpers = new Set<string>()

  constructor(rootSchemas: z.ZodType[]) {
    const count = (schema: z.ZodType) => {
      const uses = (this.#uses.get(schema) ?? 0) + 1
      this.#uses.set(schema, uses)
      if (uses === 1) for (const child of childrenOf(schema)) count(child)
    }
    for (const schema of rootSchemas) count(schema)
  }

  /**
   * Declares `schema` as `const name`, after whatever it refers to; with a `type`, as the shape
   * of that type, exported when `exported`.
   */
  declare(schema: z.ZodType, name: string, type?: string, exported = false): string {
    const existing = this.#declared.get(schema)
    if (existing !== undefined) return existing
    const expression = this.#expression(schema, name)
    return this.#push(
      schema,
      name,
      type === undefined ? expression : `${expression} as Shape<${type}>`,
      exported,
    )
  }

  /**
   * Declares the fields of the object `schema` as `const name`, so that it and the objects that
   * extend it (`.extend()` keeps the base's fields, in their order) spread them instead of
   * repeating them.
   */
  declareFields(schema: z.ZodType, name: string): void {
    const shape = defOf(schema).shape as Record<string, z.ZodType>
    this.declarations.push(`const ${name} = ${this.#fields(Object.entries(shape), name)}`)
    this.#fieldSets.set(schema, name)
  }

  /** A shared schema by name, anything else written where it is used. */
  #reference(schema: z.ZodType, path: string): string {
    const declared = this.#declared.get(schema)
    if (declared !== undefined) return declared
    const expression = this.#expression(schema, path)
    const name = this.#names.get(schema)
    const worthAName = (this.#uses.get(schema) ?? 0) > 1 || childrenOf(schema).length > 0
    // A bare helper (`string`, `currency`) is its own best name.
    if (name === undefined || !worthAName || /^\w+$/.test(expression)) return expression
    return this.#push(schema, name, expression)
  }

  #push(schema: z.ZodType, name: string, expression: string, exported = false): string {
    this.#declared.set(schema, name)
    this.declarations.push(`${exported ? 'export ' : ''}const ${name} = ${expression}`)
    return name
  }

  /** An object's fields: a declared field set, spread and extended where it is a base. */
  #objectFields(schema: z.ZodType, path: string): string {
    const shape = defOf(schema).shape as Record<string, z.ZodType>
    const own = this.#fieldSets.get(schema)
    if (own !== undefined) return own
    for (const [base, name] of this.#fieldSets) {
      const baseShape = defOf(base).shape as Record<string, z.ZodType>
      const spread = Object.keys({ ...baseShape, ...shape })
      if (spread.join() !== Object.keys(shape).join()) continue
      const changed = Object.entries(shape).filter(([key, field]) => baseShape[key] !== field)
      return this.#fields(changed, path, name)
    }
    return this.#fields(Object.entries(shape), path)
  }

  /** `{ key: shape, … }`, after a spread of the field set `base` if given. */
  #fields(entries: [string, z.ZodType][], path: string, base?: string): string {
    const lines = entries.map(
      ([key, field]) => `  ${propertyName(key)}: ${this.#reference(field, `${path}.${key}`)},`,
    )
    return `{\n${base === undefined ? '' : `  ...${base},\n`}${lines.join('\n')}\n}`
  }

  #expression(schema: z.ZodType, path: string): string {
    const expression = this.#write(schema, path)
    this.helpers.add(/^\w+/.exec(expression)?.[0] ?? '')
    return expression
  }

  #write(schema: z.ZodType, path: string): string {
    const def = defOf(schema)
    const checks = (def.checks ?? []) as z.core.$ZodCheck[]
    const unsupported = (what: string) =>
      new Error(`${path}: ${what} has no shape check; extend src/shape-check.ts and this script`)
    if (def.type !== 'string' && ownMessage(def, { code: 'invalid_type', input: undefined })) {
      throw unsupported('a type message of its own')
    }
    switch (def.type) {
      case 'unknown':
      case 'boolean':
        return def.type
      case 'string':
        return stringShape(schema, def, checks, unsupported)
      case 'number':
        return numberShape(def, checks, unsupported)
      case 'enum': {
        const values = Object.values(def.entries as object)
        // zod words a one-value enum as it words a literal.
        return values.length === 1
          ? `literal(${JSON.stringify(values[0])})`
          : `oneOf(${JSON.stringify(values)})`
      }
      case 'literal': {
        const values = def.values as unknown[]
        if (values.length !== 1 || typeof values[0] !== 'string') throw unsupported('a literal')
        return `literal(${JSON.stringify(values[0])})`
      }
      case 'nullable':
      case 'optional':
        return `${def.type}(${this.#reference(def.innerType as z.ZodType, path)})`
      case 'array':
        return `array(${this.#reference(def.element as z.ZodType, `${path}[]`)})`
      case 'record': {
        const key = defOf(def.keyType as z.ZodType)
        if (key.type !== 'string' || key.checks?.length) throw unsupported('a record key')
        return `record(${this.#reference(def.valueType as z.ZodType, `${path}{}`)})`
      }
      case 'union': {
        const options = (def.options as z.ZodType[]).map((option, index) =>
          this.#reference(option, `${path}|${index}`),
        )
        return `union([${options.join(', ')}])`
      }
      case 'object': {
        const catchall = def.catchall as z.ZodType | undefined
        if (catchall !== undefined && defOf(catchall).type !== 'unknown') {
          throw unsupported('a strict object')
        }
        const amountFields = checkedAmountFieldsOf(schema)
        if (checks.length !== (amountFields === undefined ? 0 : 1)) {
          throw unsupported('an object refinement')
        }
        const body = this.#objectFields(schema, path)
        if (amountFields === undefined) return `object(${body})`
        this.helpers.add('amountsInMinorUnits')
        return `object(${body}, amountsInMinorUnits(${JSON.stringify(amountFields)}))`
      }
      default:
        throw unsupported(`zod's ${def.type}`)
    }
  }
}

function propertyName(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)
}

function stringShape(
  schema: z.ZodType,
  def: Def,
  checks: z.core.$ZodCheck[],
  unsupported: (what: string) => Error,
): string {
  const pattern = def.pattern as RegExp | undefined
  if (pattern !== undefined) {
    if (checks.length > 0 || pattern.flags.includes('g')) throw unsupported('a string format')
    if (ownMessage(def, { code: 'invalid_type', input: undefined })) {
      throw unsupported('a type message of its own')
    }
    // The format's own message, as zod words it for text that does not match.
    const failure = schema.safeParse('')
    if (failure.success) throw unsupported('a format that accepts ""')
    const [message] = Object.values(formatZodIssues(failure.error)).flat()
    return `matching(${pattern}, ${JSON.stringify(message)})`
  }
  if (ownMessage(def, { code: 'invalid_type', input: undefined })) {
    throw unsupported('a type message of its own')
  }
  if (checks.length === 0) return 'string'
  const only = checks[0]?._zod.def as { check: string; fn?: unknown } | undefined
  if (checks.length === 1 && only?.check === 'custom' && only.fn === isKnownCurrency) {
    return 'currency'
  }
  throw unsupported('a string refinement')
}

/** What a failing check's own `error` says, if it words the failure itself. */
function ownMessage(check: object, issue: object): string | undefined {
  const { error } = check as { error?: unknown }
  if (typeof error !== 'function') return undefined
  const worded = error(issue) as string | { message: string } | undefined
  return typeof worded === 'object' ? worded.message : worded
}

function numberShape(def: Def, checks: z.core.$ZodCheck[], unsupported: (what: string) => Error) {
  if (def.format !== undefined && def.format !== 'safeint') throw unsupported('a number format')
  const rules = def.format === 'safeint' ? ['int: true'] : []
  const messages: string[] = []
  for (const check of checks) {
    const rule = check._zod.def as { check: string; value?: number; inclusive?: boolean }
    let name: string
    if (rule.check === 'greater_than') name = rule.inclusive ? 'min' : 'above'
    else if (rule.check === 'less_than' && rule.inclusive) name = 'max'
    else throw unsupported(`a number's ${rule.check}`)
    rules.push(`${name}: ${rule.value}`)
    const code = name === 'max' ? 'too_big' : 'too_small'
    const message = ownMessage(rule, { code, origin: 'number', input: rule.value })
    if (message !== undefined) messages.push(`${name}: ${JSON.stringify(message)}`)
  }
  if (rules.length === 0) return 'number()'
  const bounds = `{ ${rules.join(', ')} }`
  return messages.length === 0
    ? `number(${bounds})`
    : `number(${bounds}, { ${messages.join(', ')} })`
}

/** The source of src/response-shapes.ts, from the zod schemas as they are now. */
export function generateResponseShapes(): string {
  const eventSchemas = Object.entries(schemas.knownEventSchemas)
  const writer = new ShapeWriter([
    ...Object.values(roots).map(([schema]) => schema),
    ...eventSchemas.map(([, schema]) => schema),
  ])
  for (const [name, [schema, type]] of Object.entries(roots)) {
    // Every known event type extends the generic event: they share its field set.
    if (schema === schemas.eventSchema) writer.declareFields(schema, 'eventFields')
    writer.declare(schema, `${name}Shape`, type, true)
  }
  const events = eventSchemas.map(
    ([type, schema]) =>
      `  '${type}': ${writer.declare(schema, eventConstName(type), `EventOf<'${type}'>`)},`,
  )
  const helpers = [...writer.helpers].sort()
  const moneyHelpers = helpers.filter((name) => moneyChecks.has(name))
  const shapeHelpers = helpers.filter((name) => !moneyChecks.has(name))
  const typeImports = [
    ...new Set(Object.values(roots).map(([, type]) => type.replace(/<.*/, ''))),
    'EventOf',
    'EventType',
  ]
  const source = `// Generated by scripts/generate-response-shapes.ts from this package's zod response schemas.
// Do not edit: change the schema, then run pnpm generate:shapes.
import type {
${typeImports.map((name) => `  ${name},`).join('\n')}
} from './index'
import { ${moneyHelpers.join(', ')} } from './money-checks'
import {
${shapeHelpers.map((name) => `  ${name},`).join('\n')}
  type Shape,
} from './shape-check'

${writer.declarations.join('\n\n')}

/** The shape of each event type this package knows, by \`type\`. */
export const eventShapes: { readonly [Type in EventType]: Shape<EventOf<Type>> } = {
${events.join('\n')}
}
`
  // Formatted and import-sorted as the repository's own code, so the file passes the lint.
  const biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome')
  return execFileSync(
    process.execPath,
    [biome, 'check', '--write', `--stdin-file-path=${fileURLToPath(responseShapesFile)}`],
    { input: source, encoding: 'utf8' },
  )
}

/** `payment.success` → `paymentSuccessEvent`. */
function eventConstName(type: string): string {
  const [family = '', step = ''] = type.split('.')
  return `${family}${step.charAt(0).toUpperCase()}${step.slice(1)}Event`
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(responseShapesFile, generateResponseShapes())
}
