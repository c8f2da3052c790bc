import {
  createPaymentRequestSchema,
  createRefundOfPaymentRequestSchema,
  createRefundRequestSchema,
  listQuerySchema,
} from '@chargekit/schemas'
import type { Hono } from 'hono'
import * as z from 'zod'
import { createPayment } from '../../lifecycle/capture'
import { mustGet } from '../../lifecycle/objects'
import { createRefund } from '../../lifecycle/refund'
import { endpoint, type HttpSettings } from '../endpoint'
import { definedOnly, listEnvelope, pageRequestOf } from '../list-envelope'
import type { SandboxEnv } from '../sandbox-env'
import { validateBody, validateQuery } from '../validate'

const paymentListQuerySchema = listQuerySchema.extend({
  charge: z.string().min(1).optional(),
  instrument: z.string().min(1).optional(),
})

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
  api.get(
    '/payments',
    endpoint(settings, async ({ c, step }) => {
      const query = validateQuery(paymentListQuerySchema, c.req.query())
      const filters = definedOnly({ charge: query.charge, instrument: query.instrument })
      const page = await step.deps.store.listObjects(
        step.account.id,
        'payment',
        filters,
        pageRequestOf(query),
      )
      return { status: 200, body: listEnvelope(page, query, filters) }
    }),
  )
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
