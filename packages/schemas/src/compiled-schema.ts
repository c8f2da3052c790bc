import * as z from 'zod/v4'

type Compile = <Schema extends z.ZodType>(schema: Schema) => Schema
type Validate = (schema: z.ZodType, input: unknown) => boolean

// `z.compile` and `z.validate` are recent zod 4 additions: the `zod/v4` of zod 3.25 and early
// zod 4 releases lack them (a namespace import reads a missing export as undefined). There the
// schema's own interpreter runs, with the same results, only slower.
const zodCompile = (z as { compile?: Compile }).compile
const zodValidate = (z as { validate?: Validate }).validate

/**
 * `schema` with zod's generated validator where this zod can compile (`z.compile`), otherwise
 * `schema` itself. A compiled schema parses exactly like the original; where `new Function` is
 * forbidden (CSP, some edge runtimes) `z.compile` also hands back the schema unchanged.
 */
export function compileSchema<Schema extends z.ZodType>(schema: Schema): Schema {
  return zodCompile === undefined ? schema : zodCompile(schema)
}

/**
 * A check that answers only "valid or not", as fast as this zod can: the schema is compiled on
 * first use (not at import), and `z.validate` runs it without building the parsed copy
 * `safeParse` returns. Without `z.validate`, `safeParse` answers.
 */
export function compiledCheck(schema: z.ZodType): (input: unknown) => boolean {
  let compiled: z.ZodType | undefined
  return (input) => {
    compiled ??= compileSchema(schema)
    return zodValidate === undefined
      ? compiled.safeParse(input).success
      : zodValidate(compiled, input)
  }
}
