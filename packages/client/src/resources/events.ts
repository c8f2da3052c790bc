import type { Event } from '@chargekit/schemas'
import {
  eventsDismiss,
  eventsList,
  eventsRedeliver,
  eventsRetrieve,
} from '@chargekit/schemas/operations'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { answerValidator } from './answer-validators'
import { listPages } from './list-pages'
import type { EventListParams } from './list-params'
import { operationSender } from './operation-call'

export interface EventsResource {
  /** The full form; narrow it by `event.type`. */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Event>
  /** Events with filters, newest first. */
  list(params?: EventListParams, options?: RequestOptions): PagePromise<Event>
  /** One more delivery attempt now. */
  redeliver(id: string, options?: RequestOptions): ApiPromise<Event>
  /** Sets `dismissed_at`. */
  dismiss(id: string, options?: RequestOptions): ApiPromise<Event>
}

export function eventsResource(call: SendCall): EventsResource {
  const send = operationSender(call, answerValidator)
  return {
    retrieve: (id, options) => send(eventsRetrieve, [id], undefined, options),
    list: (params, options) => listPages(call, eventsList, params, options),
    redeliver: (id, options) => send(eventsRedeliver, [id], undefined, options),
    dismiss: (id, options) => send(eventsDismiss, [id], undefined, options),
  }
}
