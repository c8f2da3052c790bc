import { type OperationSchema, operationSchemas } from '@chargekit/schemas'
import {
  apiRoot,
  type Operation,
  type OperationOf,
  operationTable,
  type SchemaName,
  type TableOperation,
} from '@chargekit/schemas/operations'
import type { Context, Handler, Hono } from 'hono'
import type * as z from 'zod/v4'
import type { StepContext } from '../lifecycle/context'
import { endpoint, type HttpSettings } from './endpoint'
import type { SandboxEnv } from './sandbox-env'
import { searchParameterNames, searchQueryOf } from './search-query'
import { noParametersSchema, validateBody, validateQuery } from './validate'

/** The operations a browser reaches without credentials: pages, and the contract itself. */
type OpenOperation = Extract<TableOperation, { keys: 'none' }>
/** The operations of the API proper, behind the credentials. */
type ApiOperation = Exclude<TableOperation, OpenOperation>

type QueryOf<Op> = Op extends { query: infer Name extends SchemaName }
  ? z.output<OperationSchema<Name>>
  : undefined

/**
 * The operations whose body the table's schema does not judge alone: a charge's channels,
 * currency and `events_url` depend on the account and the sandbox's settings, an instrument's
 * fields on its charge's type. Their handlers get the body as read and hold it to those rules.
 */
const judgedByHandler: ReadonlySet<string> = new Set<JudgedByHandler>([
  'charges.create',
  'instruments.create',
])
type JudgedByHandler = 'charges.create' | 'instruments.create'

type BodyOf<Op> = Op extends { id: JudgedByHandler }
  ? unknown
  : Op extends { body: infer Name extends SchemaName }
    ? z.output<OperationSchema<Name>>
    : undefined

/** What the handler of an API operation gets: the request, read and checked as the table says. */
export interface OperationInput<Query = unknown, Body = unknown> {
  c: Context<SandboxEnv>
  /** The path parameters by the table's names (`id`, `paymentId`). */
  params: Record<string, string>
  /** The query, checked against the operation's query schema. */
  query: Query
  /**
   * The body, checked against the operation's body schema (its fields read leniently, as the
   * production service reads them); undefined for an operation the table gives no body, which
   * has had it checked to be empty. As read (JSON or form fields) for {@link judgedByHandler}.
   */
  body: Body
  step: StepContext
}

/** One handler for every API operation of the table; the compiler insists on all of them. */
export type ApiHandlers = {
  [Id in ApiOperation['id']]: (
    input: OperationInput<QueryOf<OperationOf<Id>>, BodyOf<OperationOf<Id>>>,
  ) => Promise<unknown>
}

/** The raw Hono handler of every operation without credentials. */
export type OpenHandlers = { [Id in OpenOperation['id']]: Handler<SandboxEnv> }

/** `/v2/charges/{id}` as Hono spells it under the API's root: `/charges/:id`. */
function routeOf(operation: TableOperation, root = ''): string {
  return operation.path.slice(root.length).replace(/\{(\w+)\}/g, ':$1')
}

const isOpen = (operation: TableOperation): operation is OpenOperation => operation.keys === 'none'

/**
 * Registers every API operation of the table on `api` (mounted at the API root, behind the
 * credentials), in the table's order, each through {@link endpoint}: success status,
 * idempotency, and the body and query read by the operation's schemas.
 */
export function registerApiOperations(
  api: Hono<SandboxEnv>,
  settings: HttpSettings,
  handlers: ApiHandlers,
): void {
  for (const operation of operationTable) {
    if (isOpen(operation)) continue
    const handle = handlers[operation.id] as (input: OperationInput) => Promise<unknown>
    const readQuery = queryReader((operation as Operation).query)
    const readBody = bodyReader(operation)
    api.on(
      operation.method,
      routeOf(operation, apiRoot),
      endpoint(settings, operation, async ({ c, body, step }) =>
        handle({ c, params: c.req.param(), query: readQuery(c), body: readBody(body), step }),
      ),
    )
  }
}

/** Registers the operations without credentials on `app`, before its authentication. */
export function registerOpenOperations(app: Hono<SandboxEnv>, handlers: OpenHandlers): void {
  for (const operation of operationTable) {
    if (isOpen(operation)) app.on(operation.method, routeOf(operation), handlers[operation.id])
  }
}

/** How an operation reads its body: by the table's schema, unless its handler judges it. */
function bodyReader(operation: Operation): (body: unknown) => unknown {
  if (operation.method === 'GET') return () => undefined
  if (judgedByHandler.has(operation.id)) return (body) => body
  const schema =
    operation.body === undefined
      ? noParametersSchema
      : (operationSchemas[operation.body] as z.ZodObject)
  return (body) => {
    const checked = validateBody(schema, body)
    return operation.body === undefined ? undefined : checked
  }
}

/**
 * How a list reads its URL query: `metadata[key]=value` gathered into `metadata` where the
 * schema has it, a field that takes a list from a repeated parameter, and any parameter the
 * schema does not name refused with a 400 naming the accepted ones. A list with neither reads
 * Hono's query, where a parameter given twice counts once (the first), as these lists always have.
 */
function queryReader(name: SchemaName | undefined): (c: Context<SandboxEnv>) => unknown {
  if (name === undefined) return () => undefined
  const schema = operationSchemas[name] as z.ZodObject
  const fields = Object.keys(schema.shape)
  const gathersMetadata = fields.includes('metadata')
  const repeatable = fields.filter((field) => acceptsList(schema.shape[field] as z.ZodType))
  const accepted = searchParameterNames(schema.shape)
  return (c) =>
    validateQuery(
      schema,
      gathersMetadata || repeatable.length > 0
        ? searchQueryOf(new URL(c.req.url), repeatable)
        : c.req.query(),
      accepted,
    )
}

/** Whether a query field takes a list (an array, or a union with one), however optional. */
function acceptsList(field: z.ZodType): boolean {
  let def = field._zod.def as z.core.$ZodTypeDef & { innerType?: z.ZodType; options?: z.ZodType[] }
  while (def.innerType !== undefined) def = def.innerType._zod.def
  return (
    def.type === 'array' ||
    (def.options?.some((option) => option._zod.def.type === 'array') ?? false)
  )
}
