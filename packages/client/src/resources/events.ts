import type { Event } from '@chargekit/schemas'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { eventValidator, listValidator } from '../schema-validators'
import { pathId } from './arguments'
import { listPages } from './list-pages'
import type { EventListParams } from './list-params'

const eventListValidator = /* @__PURE__ */ listValidator(eventValidator)

export interface EventsResource {
  /** GET /v2/events/{id}: the full form; narrow it by `event.type`. */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Event>
  /** GET /v2/events with filters, newest first. */
  list(params?: EventListParams, options?: RequestOptions): PagePromise<Event>
  /** POST /v2/events/{id}/redeliver: one more delivery attempt now. */
  redeliver(id: string, options?: RequestOptions): ApiPromise<Event>
  /** POST /v2/events/{id}/dismiss: sets `dismissed_at`. */
  dismiss(id: string, options?: RequestOptions): ApiPromise<Event>
}

export function eventsResource(call: SendCall): EventsResource {
  const action = (name: 'redeliver' | 'dismiss') => (id: string, options?: RequestOptions) =>
    call(() => ({
      method: 'POST',
      path: `/events/${pathId(`events.${name}`, 'id', id, 'ev_…')}/${name}`,
      query: '',
      body: undefined,
      validator: eventValidator,
      options,
    }))
  return {
    retrieve: (id, options) =>
      call(() => ({
        method: 'GET',
        path: `/events/${pathId('events.retrieve', 'id', id, 'ev_…')}`,
        query: '',
        body: undefined,
        validator: eventValidator,
        options,
      })),
    list: (params, options) =>
      listPages(call, 'events.list', '/events', eventListValidator, params, options),
    redeliver: action('redeliver'),
    dismiss: action('dismiss'),
  }
}
