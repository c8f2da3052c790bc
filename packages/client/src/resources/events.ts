import type { Event } from '@chargekit/schemas'
import {
  eventsDismiss,
  eventsList,
  eventsRedeliver,
  eventsRetrieve,
} from '@chargekit/schemas/operations'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { ClientConfig } from '../config'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { answerValidator } from './answer-validators'
import { type EventStreamOptions, type EventStreamParams, eventStream } from './event-stream'
import { listPages } from './list-pages'
import type { EventListParams } from './list-params'
import { operationSender } from './operation-call'

export interface EventsResource {
  /**
   * The account's new events as the service stores them, oldest first, for `for await`: a
   * Server-Sent Events stream that only the sandbox has (`chargekit listen` uses it), each event
   * in the full form. A dropped connection is resumed where it stopped, with no event lost or
   * repeated; `break` or the signal ends it. Against a service without the stream the loop throws
   * a NotFoundError at once: search with `list({ created_gte })` there instead.
   */
  stream(params?: EventStreamParams, options?: EventStreamOptions): AsyncIterable<Event>
  /** The full form; narrow it by `event.type`. */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Event>
  /** Events with filters, newest first. */
  list(params?: EventListParams, options?: RequestOptions): PagePromise<Event>
  /** One more delivery attempt now. */
  redeliver(id: string, options?: RequestOptions): ApiPromise<Event>
  /** Sets `dismissed_at`. */
  dismiss(id: string, options?: RequestOptions): ApiPromise<Event>
}

export function eventsResource(call: SendCall, config: ClientConfig): EventsResource {
  const send = operationSender(call, answerValidator)
  return {
    stream: eventStream(config),
    retrieve: (id, options) => send(eventsRetrieve, [id], undefined, options),
    list: (params, options) => listPages(call, eventsList, params, options),
    redeliver: (id, options) => send(eventsRedeliver, [id], undefined, options),
    dismiss: (id, options) => send(eventsDismiss, [id], undefined, options),
  }
}
