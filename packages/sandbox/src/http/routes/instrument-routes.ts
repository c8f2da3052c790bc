import { createInstrumentRequestSchema, createReversalRequestSchema } from '@chargekit/schemas'
import type { Hono } from 'hono'
import { createInstrument } from '../../lifecycle/create-instrument'
import { mustGet } from '../../lifecycle/objects'
import { reverseInstrument } from '../../lifecycle/reverse'
import { type EndpointInput, endpoint, type HttpSettings } from '../endpoint'
import type { SandboxEnv } from '../sandbox-env'
import { validateBody } from '../validate'

export function instrumentRoutes(api: Hono<SandboxEnv>, settings: HttpSettings): void {
  api.post(
    '/instruments',
    endpoint(settings, async ({ c, body, step }) => ({
      status: 201,
      body: await createInstrument(
        step,
        validateBody(createInstrumentRequestSchema, body),
        new URL(c.req.url).origin,
      ),
    })),
  )
  api.get(
    '/instruments/:id',
    endpoint(settings, async ({ c, step }) => ({
      status: 200,
      body: await mustGet(step, 'instrument', c.req.param('id') ?? ''),
    })),
  )
  const reverse = async ({ c, body, step }: EndpointInput) => ({
    status: 201 as const,
    body: await reverseInstrument(
      step,
      c.req.param('id') ?? '',
      validateBody(createReversalRequestSchema, body),
    ),
  })
  api.post('/instruments/:id/reversal', endpoint(settings, reverse))
  // The production service voids an authorization on DELETE; same operation.
  api.delete('/instruments/:id', endpoint(settings, reverse))
}
