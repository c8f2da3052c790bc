import { createDisputeRequestSchema, settleDisputeRequestSchema } from '@chargekit/schemas'
import type { Hono } from 'hono'
import { createDispute, settleDispute } from '../../lifecycle/dispute'
import { settle } from '../../lifecycle/settle'
import { endpoint, type HttpSettings } from '../endpoint'
import type { SandboxEnv } from '../sandbox-env'
import { noParametersSchema, validateBody } from '../validate'

/** Test helpers: what the payment provider and the customer would do. */
export function testHelperRoutes(api: Hono<SandboxEnv>, settings: HttpSettings): void {
  api.post(
    '/test/settlements',
    endpoint(settings, async ({ body, step }) => {
      validateBody(noParametersSchema, body)
      return { status: 201, body: await settle(step) }
    }),
  )
  api.post(
    '/test/payments/:id/dispute',
    endpoint(settings, async ({ c, body, step }) => ({
      status: 201,
      body: await createDispute(
        step,
        c.req.param('id') ?? '',
        validateBody(createDisputeRequestSchema, body),
      ),
    })),
  )
  api.post(
    '/test/disputes/:id/settle',
    endpoint(settings, async ({ c, body, step }) => ({
      status: 200,
      body: await settleDispute(
        step,
        c.req.param('id') ?? '',
        validateBody(settleDisputeRequestSchema, body),
      ),
    })),
  )
}
