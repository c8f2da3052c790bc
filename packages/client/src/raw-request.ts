import { describeGiven } from '@chargekit/errors'
import { formatZodIssues } from '@chargekit/schemas/response-checks'
import type * as z from 'zod/v4'
import type { ApiPromise } from './api-promise'
import type { RequestOptions } from './client-options'
import { optionError } from './option-checks'
import { type QueryValue, toQueryString } from './query-string'
import type { SendCall } from './request-loop'
import { paramsObject } from './resources/arguments'
import { type ResponseValidator, uncheckedValidator } from './response-validator'

const methods = ['GET', 'POST', 'DELETE'] as const

/** A call `client.request` sends as it is described, with the client's auth, retries and errors. */
export interface RawRequest<T = unknown> {
  method: (typeof methods)[number]
  /**
   * Under the API root, starting with `/`: `/charges/ch_1/confirm`. Ids are not encoded for you:
   * pass them through `encodeURIComponent`. The query goes in `query`, not here.
   */
  path: string
  /** Serialized like the list filters: arrays repeat the key, records become `key[field]=value`. */
  query?: Readonly<Record<string, QueryValue>>
  /** The JSON body of a POST (`{}` when left out); GET and DELETE take none. */
  body?: unknown
  /**
   * A zod schema the 2xx body must match; the call then resolves to its parsed output (so
   * transforms apply). Without one the body is `unknown`, unchecked.
   */
  schema?: z.ZodType<T>
}

const where = 'client.request'

/**
 * The escape hatch for an endpoint the client has no method for yet. A bad description rejects
 * the call before anything is sent, with the field and what was expected.
 */
export function rawRequest(call: SendCall) {
  return <T = unknown>(request: RawRequest<T>, options?: RequestOptions): ApiPromise<T> =>
    call(() => {
      const { method, path, query, body, schema } = paramsObject(where, request, true)
      if (!methods.includes(method)) {
        throw optionError(
          where,
          `method must be one of ${methods.join(', ')} (got ${describeGiven(method)})`,
        )
      }
      if (method !== 'POST' && body !== undefined) {
        throw optionError(where, `body is sent with POST only, not with ${method}`)
      }
      return {
        method,
        path: checkPath(path),
        query: toQueryString(query === undefined ? undefined : paramsObject(where, query, true)),
        body,
        validator: schema === undefined ? uncheckedValidator<T>('response') : zodValidator(schema),
        options,
      }
    })
}

function checkPath(path: unknown): string {
  if (typeof path !== 'string' || !path.startsWith('/') || /[?#]/.test(path)) {
    throw optionError(
      where,
      `path must start with "/" and hold no "?" or "#" (the query goes in query), such as "/charges/ch_1" (got ${describeGiven(path)})`,
    )
  }
  if (path === '/v2' || path.startsWith('/v2/')) {
    throw optionError(
      where,
      `path is under the API root already: pass "${path.slice(3) || '/'}", not ${describeGiven(path)}`,
    )
  }
  // URL parsing would drop `.`/`..` segments and send the call somewhere else than written.
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw optionError(where, `path must not hold "." or ".." segments (got ${describeGiven(path)})`)
  }
  return path
}

/** A caller's schema, which may transform: its output is what the call resolves to. */
function zodValidator<T>(schema: z.ZodType<T>): ResponseValidator<T> {
  if (typeof (schema as { safeParse?: unknown })?.safeParse !== 'function') {
    throw optionError(where, `schema must be a zod schema (got ${describeGiven(schema)})`)
  }
  return {
    name: 'response',
    validate(json) {
      const result = schema.safeParse(json)
      return result.success
        ? { success: true, data: result.data }
        : { success: false, issues: formatZodIssues(result.error) }
    },
  }
}
