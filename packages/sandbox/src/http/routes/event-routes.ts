import { type EventListQuery, eventListQuerySchema } from '@chargekit/schemas'
import type { Hono } from 'hono'
import { notFound } from '../../api-problem'
import type { EventDelivery } from '../../delivery/index'
import type { StepContext } from '../../lifecycle/context'
import type { EventFilter, StoredEvent } from '../../storage/records'
import { endpoint, type HttpSettings } from '../endpoint'
import { definedOnly, listEnvelope, pageRequestOf } from '../list-envelope'
import type { SandboxEnv } from '../sandbox-env'
import { searchParameterNames, searchQueryOf } from '../search-query'
import { noParametersSchema, validateBody, validateQuery } from '../validate'

const eventQueryParameters = searchParameterNames(eventListQuerySchema.shape)

export function eventRoutes(
  api: Hono<SandboxEnv>,
  settings: HttpSettings,
  delivery: EventDelivery,
): void {
  api.get(
    '/events/:id',
    endpoint(settings, async ({ c, step }) => ({
      status: 200,
      body: await mustGetEvent(step, c.req.param('id') ?? ''),
    })),
  )
  api.get(
    '/events',
    endpoint(settings, async ({ c, step }) => {
      const query = validateQuery(
        eventListQuerySchema,
        searchQueryOf(new URL(c.req.url), ['type']),
        eventQueryParameters,
      )
      const page = await step.deps.store.listEvents(
        step.account.id,
        eventFilterOf(query),
        pageRequestOf(query),
      )
      const { page: _page, per_page: _perPage, ...filters } = query
      return { status: 200, body: listEnvelope(page, query, definedOnly(filters)) }
    }),
  )
  api.post(
    '/events/:id/redeliver',
    endpoint(settings, async ({ c, body, step }) => {
      validateBody(noParametersSchema, body)
      const event = await mustGetEvent(step, c.req.param('id') ?? '')
      await delivery.redeliver(step.account.id, event)
      return { status: 200, body: await mustGetEvent(step, event.id) }
    }),
  )
  api.post(
    '/events/:id/dismiss',
    endpoint(settings, async ({ c, body, step }) => {
      validateBody(noParametersSchema, body)
      const event = await mustGetEvent(step, c.req.param('id') ?? '')
      // Dismissing twice keeps the first time: it records when the merchant dismissed it.
      if (event.dismissed_at !== null) return { status: 200, body: event }
      const dismissed = await step.deps.store.updateEvent(step.account.id, event.id, {
        dismissed_at: step.deps.now().toISOString(),
      })
      return { status: 200, body: dismissed ?? event }
    }),
  )
}

async function mustGetEvent(step: StepContext, id: string): Promise<StoredEvent> {
  const event = await step.deps.store.getEvent(step.account.id, id)
  if (event === undefined) throw notFound('event', id)
  return event
}

function eventFilterOf(query: EventListQuery): EventFilter {
  const filter: EventFilter = {}
  if (query.type !== undefined) {
    filter.types = new Set(Array.isArray(query.type) ? query.type : [query.type])
  }
  if (query.charge !== undefined) filter.charge = query.charge
  if (query.object_id !== undefined) filter.objectId = query.object_id
  if (query.metadata !== undefined) filter.metadata = query.metadata
  // Stored times are toISOString() text, so normalized bounds compare as strings.
  if (query.created_gte !== undefined) {
    filter.createdGte = new Date(query.created_gte).toISOString()
  }
  if (query.created_lte !== undefined) {
    filter.createdLte = new Date(query.created_lte).toISOString()
  }
  if (query.dismissed !== undefined) filter.dismissed = query.dismissed
  if (query.result_status !== undefined) filter.resultStatus = query.result_status
  if (query.delivery_status !== undefined) filter.deliveryStatus = query.delivery_status
  return filter
}
