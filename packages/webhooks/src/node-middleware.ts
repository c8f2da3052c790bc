// The Node adapter. It needs no `node:` import at run time: requests are read through the
// structural shapes below, which node:http, Express and Fastify objects all satisfy.
import * as z from 'zod/v4'
import { checkOptions, withMethods } from './check-options'
import { type NodeRequest, readNodeBody } from './node-body'
import type { DeliveryResponse, IncomingDelivery } from './types'

/** What the middleware writes to: node:http's `ServerResponse` (Express's `res` is one). */
export interface NodeResponse {
  headersSent?: boolean | undefined
  writeHead(status: number, headers: Record<string, string>): unknown
  end(body: string): unknown
}

/** Fastify's request: the Node request is `raw`; a parsed body sits beside it. */
export interface FastifyLikeRequest {
  raw: NodeRequest
  body?: unknown
  rawBody?: unknown
}

/** Fastify's reply: answered through `raw` after `hijack()` takes it from Fastify. */
export interface FastifyLikeReply {
  raw: NodeResponse
  hijack(): unknown
}

export interface NodeMiddlewareOptions {
  /**
   * The path deliveries are POSTed to, e.g. `/webhooks`. Other paths go to `next()` (or get a
   * 404 without one). Leave it out when the framework's router already chose this handler.
   */
  path?: string
}

/** `(req, res, next?)`: node:http's request listener, Express middleware, a Fastify handler. */
export type NodeMiddleware = (
  request: NodeRequest | FastifyLikeRequest,
  response: NodeResponse | FastifyLikeReply,
  next?: (error?: unknown) => void,
) => Promise<void>

/** Anything with `handleDelivery`, usually the result of `createWebhooks`. */
export interface DeliveryHandler {
  handleDelivery(delivery: IncomingDelivery): Promise<DeliveryResponse>
}

const nodeMiddlewareArguments = z.strictObject({
  webhooks: withMethods(
    ['handleDelivery'],
    'must be what createWebhooks({ client }) returns (an object with handleDelivery)',
  ),
  options: z
    .strictObject({
      path: z
        .string({ error: 'must be a path such as "/webhooks"' })
        .startsWith('/', { error: 'must be a path such as "/webhooks"' })
        .optional(),
    })
    .optional(),
})

/**
 * Mounts a receiver on node:http (`createServer(middleware)`), Express (`app.use(middleware)` or
 * `app.post(path, middleware)`, with or without `express.json()`/`express.urlencoded()` before
 * it) or Fastify (`fastify.post(path, middleware)`).
 */
export function createNodeMiddleware(
  webhooks: DeliveryHandler,
  options: NodeMiddlewareOptions = {},
): NodeMiddleware {
  checkOptions('createNodeMiddleware', nodeMiddlewareArguments, { webhooks, options })
  const path = options.path === undefined ? undefined : trimSlash(options.path)

  return async (request, response, next) => {
    const framework = 'raw' in request ? request : undefined
    const req = framework?.raw ?? (request as NodeRequest)
    let res: NodeResponse
    if ('hijack' in response) {
      response.hijack()
      res = response.raw
    } else {
      res = response
    }
    const url = req.originalUrl ?? req.url ?? '/'
    if (path !== undefined && trimSlash(url.split('?')[0] ?? '') !== path) {
      if (next) return next()
      return send(res, notFound(path))
    }
    const answer = await webhooks.handleDelivery({
      method: req.method ?? 'GET',
      url,
      headers: req.headers,
      body: () => readNodeBody(req, framework ?? req),
    })
    send(res, answer)
  }
}

function send(res: NodeResponse, answer: DeliveryResponse) {
  if (res.headersSent) return
  res.writeHead(answer.status, answer.headers)
  res.end(answer.body)
}

function notFound(path: string): DeliveryResponse {
  return {
    status: 404,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({
      error: { code: 'not_found', message: `Deliveries are received at POST ${path}.` },
    }),
  }
}

function trimSlash(path: string) {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
}
