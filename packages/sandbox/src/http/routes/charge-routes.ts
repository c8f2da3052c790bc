import { createChargeRequestSchemaFor, listQuerySchema } from '@chargekit/schemas'
import type { Hono } from 'hono'
import * as z from 'zod'
import { currencyProblems, describeChargeType } from '../../accounts/charge-types'
import { chargeChannelProblems, confirmCharge, createCharge } from '../../lifecycle/charges'
import { mustGet } from '../../lifecycle/objects'
import type { ChargeType } from '../../processors/charge-type'
import type { ObjectFilter } from '../../storage/records'
import { endpoint, type HttpSettings } from '../endpoint'
import { definedOnly, listEnvelope, pageRequestOf } from '../list-envelope'
import { needsPrivateKey } from '../public-key-scope'
import type { SandboxEnv } from '../sandbox-env'
import { searchParameterNames, searchQueryOf } from '../search-query'
import { noParametersSchema, validateBody, validateQuery } from '../validate'

/** GET /v2/charges: pages, and `metadata[key]=value` (every pair must match). */
const chargeListQuerySchema = listQuerySchema.extend({
  metadata: z.record(z.string(), z.string()).optional(),
})
const chargeQueryParameters = searchParameterNames(chargeListQuerySchema.shape)

export function chargeRoutes(api: Hono<SandboxEnv>, settings: HttpSettings): void {
  // Local merchants receive events on plain http to loopback; with allowHttpEventsUrl, to any host.
  const createChargeSchema = createChargeRequestSchemaFor({
    allowLoopbackHttp: true,
    allowAnyHttp: settings.allowHttpEventsUrl,
  })
  api.post(
    '/charges',
    endpoint(settings, async ({ c, body, step }) => {
      const input = validateBody(createChargeSchema, body, (fields) => ({
        ...chargeChannelProblems(step.account, fields),
        ...currencyProblems(
          settings.deps.processors.chargeType(String(fields.charge_type)),
          fields.currency,
        ),
      }))
      // A charge started in the customer's browser waits for the merchant's confirmation.
      if (c.get('credential') === 'public') {
        if (input.confirmed === true) throw needsPrivateKey('Confirming a charge')
        return { status: 201, body: await createCharge(step, { ...input, confirmed: false }) }
      }
      return { status: 201, body: await createCharge(step, input) }
    }),
  )
  // Before /charges/:id, which would take "types" for an id.
  api.get(
    '/charges/types',
    endpoint(settings, async ({ step }) => ({
      status: 200,
      body: {
        collection: step.account.chargeTypes.map((id) =>
          describeChargeType(settings.deps.processors.chargeType(id) as ChargeType),
        ),
      },
    })),
  )
  api.get(
    '/charges/:id',
    endpoint(settings, async ({ c, step }) => ({
      status: 200,
      body: await mustGet(step, 'charge', c.req.param('id') ?? ''),
    })),
  )
  api.post(
    '/charges/:id/confirm',
    endpoint(settings, async ({ c, body, step }) => {
      validateBody(noParametersSchema, body)
      return { status: 201, body: await confirmCharge(step, c.req.param('id') ?? '') }
    }),
  )
  api.get(
    '/charges',
    endpoint(settings, async ({ c, step }) => {
      const query = validateQuery(
        chargeListQuerySchema,
        searchQueryOf(new URL(c.req.url)),
        chargeQueryParameters,
      )
      const filters = definedOnly({ metadata: query.metadata })
      const page = await step.deps.store.listObjects(
        step.account.id,
        'charge',
        filters as ObjectFilter,
        pageRequestOf(query),
      )
      return { status: 200, body: listEnvelope(page, query, filters) }
    }),
  )
}
