import * as z from 'zod/v4'

// What each request field is, said once, in its schema: the OpenAPI document and each charge
// type's JSON Schema show it as the field's `description`, and a problem with the value says it,
// so an empty card month answers "Expected the card's expiry month, a number from 1 to 12"
// rather than zod's "expected number".

/**
 * What a message says a field should be: `Expected the card's expiry month, a number from 1 to
 * 12`, or `Required: …` when it is missing.
 */
export function expectedField(description: string, missing = false): string {
  // "The card's…" reads as "Expected the card's…"; "MB WAY…" and "ISO…" keep their capitals.
  const text = /^[A-Z][a-z' ]/.test(description)
    ? `${description.charAt(0).toLowerCase()}${description.slice(1)}`
    : description
  return missing ? `Required: ${text}` : `Expected ${text}`
}

/**
 * `schema` with `description` in its metadata, which also becomes the message of every problem
 * its own checks find without a message of their own (a missing value, the wrong kind, out of
 * range, not matching its pattern). A check's own message stays: it says more than the
 * description can, as the decimals a currency allows. Describe the schema that checks the value,
 * before `.optional()` or a transform: a wrapper's description does not reach the checks inside.
 */
export function describedField<Schema extends z.ZodType>(
  description: string,
  schema: Schema,
): Schema {
  const own = schema._zod.def.error as z.core.$ZodErrorMap | undefined
  const error: z.core.$ZodErrorMap = (issue) =>
    own?.(issue) ??
    expectedField(description, issue.code === 'invalid_type' && issue.input === undefined)
  // A clone with the message (zod has no method that sets it on an existing schema), kept as the
  // original's child so metadata given before (a title) is inherited.
  return schema.clone({ ...schema._zod.def, error }, { parent: true }).meta({ description })
}

type Def = z.core.$ZodTypes['_zod']['def']

/**
 * The schema `schema` wraps: the inner schema of `.optional()`, `.nullable()`, a default and the
 * like, the input side of a pipe (a transform reads what the schema before it accepted), the
 * schema a lazy one stands for; undefined for any other schema.
 */
export function wrappedSchema(schema: z.core.$ZodType): z.core.$ZodType | undefined {
  const def = schema._zod.def as Def
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return def.innerType
    case 'pipe':
      return def.in
    case 'lazy':
      return def.getter()
    default:
      return undefined
  }
}

/**
 * The description of a field's schema, looking through its wrappers ({@link wrappedSchema}) to
 * the schema that checks the value; undefined when none has one.
 */
export function fieldDescription(schema: z.core.$ZodType): string | undefined {
  for (
    let current: z.core.$ZodType | undefined = schema;
    current;
    current = wrappedSchema(current)
  ) {
    const description = z.globalRegistry.get(current)?.description
    if (description !== undefined) return description
  }
  return undefined
}
