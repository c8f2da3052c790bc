import {
  apiRoot,
  chargesRetrieve,
  chargesTypes,
  eventsDismiss,
  eventsList,
  eventsRedeliver,
  eventsRetrieve,
  pathPattern,
  testHelpersApproveInstrument,
  testHelpersDeclineInstrument,
  testHelpersExpireInstrument,
  testHelpersListRequests,
  testHelpersPayReference,
  testHelpersSigningSecret,
} from '@chargekit/schemas/operations'
import { Hono } from 'hono'
import { csrfTokensMatch, isSameOriginRequest } from './csrf-guard'
import { noStore } from './security-headers'
import type { SessionCookie } from './session-cookie'

/**
 * The page's calls to the sandbox API go through the dashboard server, which adds the signed-in
 * account's Basic credentials: the browser never holds them. Only the calls the page makes are
 * let through, so a stolen session cookie cannot be turned into general API access.
 */
export type ApiFetch = (request: Request) => Promise<Response>

// Ids are opaque but never contain '/', '.', or escapes; excluding them rules out path tricks.
const id = '[\\w-]+'
/** The operations the page calls (paths under the API root): the customer's answers too. */
const allowedCalls: readonly { method: string; path: RegExp }[] = [
  eventsList,
  eventsRetrieve,
  eventsRedeliver,
  eventsDismiss,
  chargesRetrieve,
  chargesTypes,
  testHelpersListRequests,
  testHelpersSigningSecret,
  testHelpersApproveInstrument,
  testHelpersDeclineInstrument,
  testHelpersPayReference,
  testHelpersExpireInstrument,
].map((operation) => ({
  method: operation.method,
  path: pathPattern(operation.path.slice(apiRoot.length), id),
}))

// Headers of the API's answer the page may see. `WWW-Authenticate` in particular is dropped, or
// the browser would pop up its own Basic credentials dialog on a 401.
const forwardedHeaders = ['content-type', 'request-id', 'retry-after'] as const

/**
 * `/api/{path}` answers as `/v2/{path}` would for the session's account. Calls that change
 * something (redeliver, dismiss, a customer's answer) also need the page's CSRF token in
 * `X-CSRF-Token`.
 */
export function apiProxyRoutes(deps: { api: ApiFetch; cookie: SessionCookie }): Hono {
  const { api, cookie } = deps
  const routes = new Hono()
  routes.all('/api/*', async (c) => {
    const session = cookie.current(c)
    if (session === undefined) {
      return c.json({ message: 'Not signed in; sign in again at /dashboard.' }, 401, noStore)
    }
    const path = new URL(c.req.url).pathname.slice('/dashboard/api'.length)
    if (!isAllowedApiCall(c.req.method, path)) {
      return c.json(
        {
          message: `The dashboard does not offer ${c.req.method} ${path}; call the API at /v2 with your credentials instead.`,
        },
        404,
        noStore,
      )
    }
    if (
      c.req.method !== 'GET' &&
      (!isSameOriginRequest(c.req.raw) ||
        !csrfTokensMatch(c.req.header('x-csrf-token'), session.csrfToken))
    ) {
      return c.json(
        { message: 'Missing or wrong X-CSRF-Token header; reload the dashboard and try again.' },
        403,
        noStore,
      )
    }
    const answer = await forwardApiCall(api, c.req.raw, path, session.authorization)
    if (answer.status === 401) {
      await answer.body?.cancel()
      cookie.end(c, session)
      return c.json(
        { message: 'The sandbox no longer accepts this account; sign in again at /dashboard.' },
        401,
        noStore,
      )
    }
    return answer
  })
  return routes
}

/** Whether the page may make this call; `path` is relative to `/v2`. */
function isAllowedApiCall(method: string, path: string): boolean {
  return allowedCalls.some((call) => call.method === method && call.path.test(path))
}

/** Calls `GET|POST /v2{path}{query}` on the API as the session's account and relays the answer. */
async function forwardApiCall(
  api: ApiFetch,
  request: Request,
  path: string,
  authorization: string,
): Promise<Response> {
  const source = new URL(request.url)
  const target = new URL(`/v2${path}${source.search}`, source.origin)
  const headers = new Headers({ authorization, accept: 'application/json' })
  let body: string | undefined
  if (request.method === 'POST') {
    // The calls it lets through take no parameters; an empty JSON object is their canonical body.
    headers.set('content-type', 'application/json')
    body = '{}'
  }
  const answer = await api(
    new Request(target, { method: request.method, headers, body: body ?? null }),
  )
  const relayed = new Headers({ 'cache-control': 'no-store' })
  for (const name of forwardedHeaders) {
    const value = answer.headers.get(name)
    if (value !== null) relayed.set(name, value)
  }
  return new Response(answer.body, { status: answer.status, headers: relayed })
}
