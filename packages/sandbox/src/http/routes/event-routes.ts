import type { EventListQuery } from '@chargekit/schemas'
import type { EventDelivery } from '../../delivery/index'
import type { StepContext } from '../../lifecycle/context'
import { notFound } from '../../lifecycle/lifecycle-error'
import type { EventFilter, StoredEvent } from '../../storage/records'
import { definedOnly, listEnvelope, pageRequestOf } from '../list-envelope'
import type { ApiHandlers } from '../operation-routes'

type EventHandlers = Pick<
  ApiHandlers,
  'events.retrieve' | 'events.list' | 'events.redeliver' | 'events.dismiss'
>

export function eventHandlers(delivery: EventDelivery): EventHandlers {
  return {
    'events.retrieve': ({ params, step }) => mustGetEvent(step, params.id ?? ''),
    'events.list': async ({ query, step }) => {
      const page = await step.deps.store.listEvents(
        step.account.id,
        eventFilterOf(query),
        pageRequestOf(query),
      )
      const { page: _page, per_page: _perPage, ...filters } = query
      return listEnvelope(page, query, definedOnly(filters))
    },
    'events.redeliver': async ({ params, step }) => {
      const event = await mustGetEvent(step, params.id ?? '')
      await delivery.redeliver(step.account.id, event)
      return mustGetEvent(step, event.id)
    },
    'events.dismiss': async ({ params, step }) => {
      const event = await mustGetEvent(step, params.id ?? '')
      // Dismissing twice keeps the first time: it records when the merchant dismissed it.
      if (event.dismissed_at !== null) return event
      const dismissed = await step.deps.store.updateEvent(step.account.id, event.id, {
        dismissed_at: step.deps.now().toISOString(),
      })
      return dismissed ?? event
    },
  }
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
