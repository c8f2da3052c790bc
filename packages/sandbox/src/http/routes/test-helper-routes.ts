import { createDisputeRequestSchema, settleDisputeRequestSchema } from '@chargekit/schemas'
import type { Hono } from 'hono'
import { createDispute, settleDispute } from '../../lifecycle/disputes'
import { answerAsCustomer } from '../../lifecycle/instruments'
import { settle } from '../../lifecycle/settlements'
import { endpoint, type HttpSettings } from '../endpoint'
import type { SandboxEnv } from '../sandbox-env'
import { noParametersSchema, validateBody } from '../validate'

/**
 * Test helpers: what the payment provider and the customer would do. The customer's answers to
 * an authorization waiting for them: approve or decline (an approval page, an app
 * notification), pay (a payment reference), expire (its deadline passes now).
 */
export function testHelperRoutes(api: Hono<SandboxEnv>, settings: HttpSettings): void {
  for (const answer of ['approve', 'decline', 'pay', 'expire'] as const) {
    api.post(
      `/test/instruments/:id/${answer}`,
      endpoint(settings, async ({ c, body, step }) => {
        validateBody(noParametersSchema, body)
        const { instrument } = await answerAsCustomer(step, c.req.param('id') ?? '', answer, {
          origin: settings.publicUrl,
          strict: true,
        })
        return { status: 200, body: instrument }
      }),
    )
  }
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
