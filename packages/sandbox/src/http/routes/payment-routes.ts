import {
  createPaymentRequestSchema,
  createRefundOfPaymentRequestSchema,
  createRefundRequestSchema,
} from '@chargekit/schemas'
import type { Hono } from 'hono'
import { mustGet } from '../../lifecycle/objects'
import { createPayment } from '../../lifecycle/payments'
import { createRefund } from '../../lifecycle/refunds'
import { endpoint, type HttpSettings } from '../endpoint'
import type { SandboxEnv } from '../sandbox-env'
import { validateBody } from '../validate'
import { objectListRoute } from './object-routes'

export function paymentRoutes(api: Hono<SandboxEnv>, settings: HttpSettings): void {
  api.post(
    '/payments',
    endpoint(settings, async ({ body, step }) => ({
      status: 201,
      body: await createPayment(step, validateBody(createPaymentRequestSchema, body)),
    })),
  )
  api.get(
    '/payments/:id',
    endpoint(settings, async ({ c, step }) => ({
      status: 200,
      body: await mustGet(step, 'payment', c.req.param('id') ?? ''),
    })),
  )
  objectListRoute(api, settings, '/payments', 'payment', ['charge', 'instrument'])
  api.post(
    '/payments/:id/refund',
    endpoint(settings, async ({ c, body, step }) => ({
      status: 201,
      body: await createRefund(
        step,
        c.req.param('id') ?? '',
        validateBody(createRefundRequestSchema, body),
      ),
    })),
  )
  // The same refund with the payment named in the body, as the production service also takes it.
  api.post(
    '/refunds',
    endpoint(settings, async ({ body, step }) => {
      const { payment, ...refund } = validateBody(createRefundOfPaymentRequestSchema, body)
      return { status: 201, body: await createRefund(step, payment, refund) }
    }),
  )
}
