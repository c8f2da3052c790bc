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

/** What the handler of an API operation gets: the request, read and checked as the table says. */
export interface OperationInput<Query = unknown> {
  c: Context<SandboxEnv>
  /** The path parameters by the table's names (`id`, `paymentId`). */
  params: Record<string, string>
  /** The query, checked against the operation's query schema. */
  query: Query
  /**
   * The body as read (JSON or form fields), undefined when there was none. An operation the
   * table gives no body has had it checked to be empty; the others check it themselves, as
   * only they know an account's channels or a processor's instrument fields.
   */
  body: unknown
  step: StepContext
}

/** One handler for every API operation of the table; the compiler insists on all of them. */
export type ApiHandlers = {
  [Id in ApiOperation['id']]: (input: OperationInput<QueryOf<OperationOf<Id>>>) => Promise<unknown>
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
 * idempotency, and the query read by the operation's schema.
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
    api.on(
      operation.method,
      routeOf(operation, apiRoot),
      endpoint(settings, operation, async ({ c, body, step }) => {
        if (operation.method !== 'GET' && !('body' in operation)) {
          validateBody(noParametersSchema, body)
        }
        return handle({ c, params: c.req.param(), query: readQuery(c), body, step })
      }),
    )
  }
}

/** Registers the operations without credentials on `app`, before its authentication. */
export function registerOpenOperations(app: Hono<SandboxEnv>, handlers: OpenHandlers): void {
  for (const operation of operationTable) {
    if (isOpen(operation)) app.on(operation.method, routeOf(operation), handlers[operation.id])
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
