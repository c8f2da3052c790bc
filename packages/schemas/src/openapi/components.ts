import * as z from 'zod/v4'
import { compactEventSchema } from '../compact-event'
import {
  apiErrorBodySchema,
  processorErrorBodySchema,
  validationErrorBodySchema,
} from '../error-bodies'
import {
  chargeOnlyInstrumentRequestSchema,
  createInstrumentRequestSchema,
  mbwayInstrumentRequestSchema,
} from '../instrument-request'
import { listEnvelopeSchema } from '../list-envelope'
import type { OperationAnswer, SchemaName } from '../operation'
import { operationSchemas } from '../operation-schemas'
import { operationTable } from '../operations'

/** A JSON Schema as zod writes it; the document only reads and nests them. */
export type JsonSchema = Record<string, unknown>

/** `#/components/schemas/{name}` as a reference. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })

/** The component name of a list page of `item`: `ChargeList`. */
export const listName = (item: SchemaName) => `${item}List`

/** The instrument request's three forms, each a component of its own. */
const instrumentRequestForms = {
  CardInstrumentRequest: createInstrumentRequestSchema,
  MbwayInstrumentRequest: mbwayInstrumentRequestSchema,
  ChargeOnlyInstrumentRequest: chargeOnlyInstrumentRequestSchema,
}

const errorBodies = {
  ApiErrorBody: apiErrorBodySchema,
  ValidationErrorBody: validationErrorBodySchema,
  ProcessorErrorBody: processorErrorBodySchema,
}

/**
 * The schemas the table's operations send and answer, as JSON Schema for
 * `components.schemas`. Requests as the service reads them (zod's input), answers as it writes
 * them (zod's output), so an answer's defaults and transforms show as the values they become.
 * Objects are open in both: the service ignores unknown request fields, and answers may grow.
 */
export function componentSchemas(): Record<string, JsonSchema> {
  const requests = z.registry<{ id: string }>()
  const answers = z.registry<{ id: string }>()
  for (const [name, schema] of Object.entries(instrumentRequestForms)) {
    requests.add(schema, { id: name })
  }
  for (const [name, schema] of Object.entries(errorBodies)) answers.add(schema, { id: name })
  answers.add(compactEventSchema, { id: 'CompactEvent' })
  for (const operation of operationTable) {
    if ('body' in operation) register(requests, operation.body)
    if ('publicAnswer' in operation) register(answers, operation.publicAnswer)
    const answer: OperationAnswer = operation.answer
    if (typeof answer === 'object' && 'stream' in answer) {
      register(answers, answer.stream)
    } else if (typeof answer === 'object') {
      register(answers, answer.list)
      const list = listEnvelopeSchema(operationSchemas[answer.list])
      if (!answers.has(list)) answers.add(list, { id: listName(answer.list) })
    } else if (answer !== 'nothing' && answer !== 'page' && answer !== 'document') {
      register(answers, answer)
    }
  }
  return { ...toComponents(answers, 'output'), ...toComponents(requests, 'input') }
}

function register(registry: z.core.$ZodRegistry<{ id: string }>, name: SchemaName): void {
  const schema = operationSchemas[name]
  if (!registry.has(schema)) registry.add(schema, { id: name })
}

function toComponents(
  registry: z.core.$ZodRegistry<{ id: string }>,
  io: 'input' | 'output',
): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    // Refinements (amount precision, minor units) are rules JSON Schema cannot state; the
    // descriptions and the service's 400 say them.
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  })
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema
      return [name, rest]
    }),
  )
}

/**
 * The query parameters of a list as the service reads them: each field of the query schema,
 * `metadata[key]=value` as a deep object, a field that takes a list as a repeated parameter.
 */
export function queryParameters(name: SchemaName): JsonSchema[] {
  const schema = z.toJSONSchema(operationSchemas[name], {
    io: 'output',
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as { properties?: Record<string, JsonSchema>; required?: string[] }
  const required = new Set(schema.required ?? [])
  return Object.entries(schema.properties ?? {}).map(([field, given]) => {
    const { description, ...property } = withoutOpenOptions(given)
    const said = typeof description === 'string' ? description : undefined
    if (property.type === 'object') {
      return {
        name: field,
        in: 'query',
        style: 'deepObject',
        explode: true,
        description: `${said ?? `Only objects whose ${field} has every given value`}: \`${field}[key]=value\`.`,
        schema: property,
      }
    }
    const repeated = repeatedItem(property)
    return {
      name: field,
      in: 'query',
      ...(required.has(field) && property.default === undefined ? { required: true } : {}),
      ...(repeated === undefined
        ? { ...(said === undefined ? {} : { description: `${said}.` }), schema: property }
        : {
            description: `${said === undefined ? '' : `${said}. `}Repeat the parameter for several values (any of them matches).`,
            style: 'form',
            explode: true,
            schema: { type: 'array', items: repeated },
          }),
    }
  })
}

/**
 * A query field read from text through a transform (`"true"` → true) has an option JSON Schema
 * cannot state (`{}`); the other options say what it becomes.
 */
function withoutOpenOptions(property: JsonSchema): JsonSchema {
  const options = (property.anyOf as JsonSchema[] | undefined)?.filter(
    (option) => Object.keys(option).length > 0,
  )
  if (options === undefined) return property
  const { anyOf: _anyOf, ...rest } = property
  return options.length === 1 ? { ...rest, ...options[0] } : { ...rest, anyOf: options }
}

/** The item of a parameter that takes one value or a list of them (`anyOf: [X, X[]]`). */
function repeatedItem(property: JsonSchema): JsonSchema | undefined {
  const options = property.anyOf as JsonSchema[] | undefined
  const list = options?.find((option) => option.type === 'array')
  return list === undefined ? undefined : (list.items as JsonSchema)
}
