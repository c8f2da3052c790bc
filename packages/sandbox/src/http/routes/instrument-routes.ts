import { createReversalRequestSchema } from '@chargekit/schemas'
import type { Handler, Hono } from 'hono'
import { createInstrument, invalidateInstrument } from '../../lifecycle/instruments'
import { mustGet } from '../../lifecycle/objects'
import { reverseInstrument } from '../../lifecycle/reversals'
import { endpoint, type HttpSettings } from '../endpoint'
import type { SandboxEnv } from '../sandbox-env'
import { noParametersSchema, validateBody } from '../validate'
import { objectListRoute } from './object-routes'

export function instrumentRoutes(api: Hono<SandboxEnv>, settings: HttpSettings): void {
  api.post(
    '/instruments',
    endpoint(settings, async ({ body, step }) => ({
      status: 201,
      body: await createInstrument(step, body, settings.publicUrl),
    })),
  )
  objectListRoute(api, settings, '/instruments', 'instrument', ['charge', 'status'])
  api.get(
    '/instruments/:id',
    endpoint(settings, async ({ c, step }) => ({
      status: 200,
      body: await mustGet(step, 'instrument', c.req.param('id') ?? ''),
    })),
  )
  api.post(
    '/instruments/:id/reversal',
    endpoint(settings, async ({ c, body, step }) => ({
      status: 201,
      body: await reverseInstrument(
        step,
        c.req.param('id') ?? '',
        validateBody(createReversalRequestSchema, body),
      ),
    })),
  )
  api.delete(
    '/instruments/:id',
    noContent(
      endpoint(settings, async ({ c, body, step }) => {
        validateBody(noParametersSchema, body)
        await invalidateInstrument(step, c.req.param('id') ?? '')
        return { status: 200, body: null }
      }),
    ),
  )
}

/**
 * The service answers a successful DELETE with 204 and no body. The endpoint's 200 becomes that
 * (its headers kept, an idempotent replay's included); errors pass through as they are.
 */
function noContent(handler: Handler<SandboxEnv>): Handler<SandboxEnv> {
  return async (c, next) => {
    const response = (await handler(c, next)) as Response
    if (response.status !== 200) return response
    const headers = new Headers(response.headers)
    headers.delete('content-type')
    headers.delete('content-length')
    return new Response(null, { status: 204, headers })
  }
}
