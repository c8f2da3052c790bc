import { createChargeRequestSchemaFor, listQuerySchema } from '@chargekit/schemas'
import type { Hono } from 'hono'
import { chargeChannelProblems } from '../../lifecycle/charge-channels'
import { createCharge } from '../../lifecycle/create-charge'
import { mustGet } from '../../lifecycle/objects'
import { endpoint, type HttpSettings } from '../endpoint'
import { listEnvelope, pageRequestOf } from '../list-envelope'
import type { SandboxEnv } from '../sandbox-env'
import { validateBody, validateQuery } from '../validate'

// Local merchants receive events on plain http to loopback (issue 4).
const createChargeSchema = createChargeRequestSchemaFor({ allowLoopbackHttp: true })

export function chargeRoutes(api: Hono<SandboxEnv>, settings: HttpSettings): void {
  api.post(
    '/charges',
    endpoint(settings, async ({ body, step }) => ({
      status: 201,
      body: await createCharge(
        step,
        validateBody(createChargeSchema, body, (fields) =>
          chargeChannelProblems(step.account, fields),
        ),
      ),
    })),
  )
  api.get(
    '/charges/:id',
    endpoint(settings, async ({ c, step }) => ({
      status: 200,
      body: await mustGet(step, 'charge', c.req.param('id') ?? ''),
    })),
  )
  api.get(
    '/charges',
    endpoint(settings, async ({ c, step }) => {
      const query = validateQuery(listQuerySchema, c.req.query())
      const page = await step.deps.store.listObjects(
        step.account.id,
        'charge',
        {},
        pageRequestOf(query),
      )
      return { status: 200, body: listEnvelope(page, query, {}) }
    }),
  )
}
