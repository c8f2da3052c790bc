// Writes src/option-rules.ts: the options declared in scripts/client-options-schema.ts compiled
// into plain data the clients check with (src/option-checks.ts), so neither client loads zod.
// Run after changing the declaration: pnpm generate:options (test/option-rules.test.ts fails
// while the file is stale).
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import * as z from 'zod/v4'
import type { OptionMeta } from './client-options-schema'
import * as declared from './client-options-schema'

export const optionRulesFile = new URL('../src/option-rules.ts', import.meta.url)

/** The generated export of each declared schema. */
const tables = {
  clientOptionRules: declared.clientOptionsSchema,
  requestOptionRules: declared.requestOptionsSchema,
  browserClientOptionRules: declared.browserClientOptionsSchema,
  browserRequestOptionRules: declared.browserRequestOptionsSchema,
}

type Def = z.core.$ZodTypeDef & Record<string, unknown>
const defOf = (schema: z.ZodType) => schema._zod.def as Def
const checksOf = (def: Def) =>
  ((def.checks ?? []) as z.core.$ZodCheck[]).map((check) => check._zod.def as unknown as Def)

/** The rule of one option, as the object literal src/option-checks.ts reads. */
function ruleOf(schema: z.ZodType, shared: SharedRules): Record<string, unknown> {
  let current = schema
  let rule: Record<string, unknown> = {}
  const meta = (z.globalRegistry.get(schema) ?? {}) as OptionMeta
  for (;;) {
    const def = defOf(current)
    // An option that is not given is left undefined, or given its default, by its check.
    if (def.type === 'default') rule.default = def.defaultValue
    else if (def.type !== 'optional') break
    current = def.innerType as z.ZodType
  }
  const def = defOf(current)
  const checks = checksOf(def)
  const check = (name: string) => checks.find((candidate) => candidate.check === name)
  switch (def.type) {
    case 'number': {
      if (def.format !== 'safeint') throw new Error('Only whole numbers are supported: use z.int()')
      const min = check('greater_than')
      const max = check('less_than')
      if (min?.inclusive !== true || max?.inclusive !== true) {
        throw new Error('A whole number option needs .min() and .max()')
      }
      rule = { check: checkNamed('wholeNumber'), min: min.value, max: max.value, ...rule }
      break
    }
    case 'boolean':
      rule = { check: checkNamed('flag'), ...rule }
      break
    case 'string': {
      if (def.format === 'url') {
        rule = { check: checkNamed('checkBaseUrl'), ...rule }
        break
      }
      const pattern = check('string_format')?.pattern as RegExp | undefined
      const minLength = check('min_length')?.minimum
      rule = {
        check: checkNamed(meta.variable === undefined ? 'text' : 'credential'),
        ...(pattern === undefined ? {} : { pattern }),
        ...(minLength === undefined ? {} : { minLength }),
        ...rule,
      }
      break
    }
    case 'custom':
      // A function, when its message says which; anything else is read by the code using it.
      rule = { check: checkNamed(meta.expected === undefined ? 'anything' : 'callback'), ...rule }
      break
    case 'object':
      rule = {
        check: checkNamed('options'),
        rules: rulesOf(current as z.ZodObject, shared),
        ...rule,
      }
      break
    default:
      throw new Error(`No option rule for a ${def.type}`)
  }
  if (meta.expected !== undefined) rule.expected = meta.expected
  if (meta.unit !== undefined) rule.unit = meta.unit
  if (meta.variable !== undefined) {
    // Read from the environment when not given, then checked as declared.
    rule.check = new Reference(
      `/* @__PURE__ */ ${checkNamed('configured').name}(${(rule.check as Reference).name})`,
    )
    rule.variable = meta.variable
  }
  return rule
}

/**
 * The rules of an options object by option name; a rule several tables share (the same declared
 * schema) is written once, as a constant named after its option, and referred to by name.
 */
function rulesOf(schema: z.ZodObject, shared: SharedRules): Record<string, unknown> {
  if (defOf(defOf(schema).catchall as z.ZodType)?.type !== 'never') {
    throw new Error('Declare options with z.strictObject: unknown options are refused')
  }
  return Object.fromEntries(
    Object.entries(schema.shape).map(([key, option]) => {
      const name = shared.names.get(option as z.ZodType)
      if (name === undefined) return [key, ruleOf(option as z.ZodType, shared)]
      if (!shared.declared.has(name)) {
        shared.declared.set(name, ruleOf(option as z.ZodType, shared))
      }
      return [key, new Reference(name)]
    }),
  )
}

/** A name written as it is: a shared rule's constant, or a check function of src/option-checks.ts. */
class Reference {
  constructor(readonly name: string) {}
}

/** The check functions the generated rules use, imported by the generated file. */
const checksUsed = new Set<string>()

function checkNamed(name: string): Reference {
  checksUsed.add(name)
  return new Reference(name)
}

interface SharedRules {
  /** Each schema used by more than one table, and the constant it is written as. */
  names: Map<z.ZodType, string>
  declared: Map<string, unknown>
}

function sharedRules(): SharedRules {
  const seen = new Map<z.ZodType, { key: string; uses: number }>()
  for (const schema of Object.values(tables)) {
    for (const [key, option] of Object.entries(schema.shape)) {
      const entry = seen.get(option as z.ZodType) ?? { key, uses: 0 }
      entry.uses += 1
      seen.set(option as z.ZodType, entry)
    }
  }
  const names = new Map<z.ZodType, string>()
  for (const [schema, { key, uses }] of seen) {
    const named = (z.globalRegistry.get(schema) as OptionMeta | undefined)?.rule
    if (uses > 1) names.set(schema, named ?? `${key}Rule`)
  }
  return { names, declared: new Map() }
}

/** A rule table as TypeScript source: regular expressions as literals, the rest as JSON. */
function literal(value: unknown): string {
  if (value instanceof Reference) return value.name
  if (value instanceof RegExp) return value.toString()
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => `${key}: ${literal(item)}`)
    return `{ ${entries.join(', ')} }`
  }
  return JSON.stringify(value)
}

export function generateOptionRules(): string {
  checksUsed.clear()
  const shared = sharedRules()
  const tableDeclarations = Object.entries(tables).map(
    ([name, schema]) =>
      `export const ${name} = ${literal(rulesOf(schema, shared))} as const satisfies OptionRules`,
  )
  const declarations = [
    ...[...shared.declared].map(
      ([name, rule]) => `const ${name} = ${literal(rule)} as const satisfies OptionRule`,
    ),
    ...tableDeclarations,
  ]
  const checks = [...checksUsed].sort().join(', ')
  const source = `// Generated by scripts/generate-option-rules.ts from scripts/client-options-schema.ts.
// Do not edit: change the declaration, then run pnpm generate:options.
import { ${checks}, type OptionRule, type OptionRules } from './option-checks'

${declarations.join('\n\n')}
`
  return format(source)
}

/** Formatted and import-sorted as the repository's own code, so the file passes the lint. */
function format(source: string): string {
  const require = createRequire(import.meta.url)
  const biome = require.resolve('@biomejs/biome/bin/biome')
  return execFileSync(
    process.execPath,
    [biome, 'check', '--write', `--stdin-file-path=${fileURLToPath(optionRulesFile)}`],
    { input: source, encoding: 'utf8' },
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(optionRulesFile, generateOptionRules())
}
