import { type EventType, eventTypeList, isEventType } from '@chargekit/schemas'
import { WebhooksError } from './errors'
import type { ErrorHandler, EventHandler } from './types'

export type HandlerRegistry = ReturnType<typeof createHandlerRegistry>

/** Handlers by event type, catch-all handlers and error listeners, in registration order. */
export function createHandlerRegistry() {
  const byType = new Map<string, EventHandler[]>()
  const anyHandlers: EventHandler[] = []
  const errorHandlers: ErrorHandler[] = []

  return {
    on(types: readonly string[], handler: EventHandler): () => void {
      assertFunction(handler, 'on')
      for (const type of types) {
        if (!isEventType(type)) {
          throw new WebhooksError(
            'invalid_configuration',
            `on(${JSON.stringify(type)}): not an event type. Expected one of ${eventTypeList.join(', ')}; use onAny for types this version does not know.`,
          )
        }
      }
      const removals = types.map((type) => add(listFor(type as EventType), handler))
      return () => {
        for (const remove of removals) remove()
      }
    },
    onAny(handler: EventHandler): () => void {
      assertFunction(handler, 'onAny')
      return add(anyHandlers, handler)
    },
    onError(handler: ErrorHandler): () => void {
      assertFunction(handler, 'onError')
      return add(errorHandlers, handler)
    },
    /** A snapshot, so (un)registering while an event runs does not change that run. */
    handlersFor(type: string): EventHandler[] {
      return [...(byType.get(type) ?? []), ...anyHandlers]
    },
    /** Error listeners must not break the answer: their own failures are swallowed. */
    report(error: WebhooksError): void {
      for (const handler of errorHandlers) {
        try {
          Promise.resolve(handler(error)).catch(ignore)
        } catch {
          // A throwing listener is its own bug; the delivery's answer stands.
        }
      }
    },
  }

  function listFor(type: EventType) {
    let list = byType.get(type)
    if (list === undefined) {
      list = []
      byType.set(type, list)
    }
    return list
  }
}

function add<T>(list: T[], item: T): () => void {
  list.push(item)
  return () => {
    const index = list.indexOf(item)
    if (index !== -1) list.splice(index, 1)
  }
}

function assertFunction(handler: unknown, method: string) {
  if (typeof handler !== 'function') {
    throw new WebhooksError(
      'invalid_configuration',
      `${method}: the handler must be a function; got ${typeof handler}.`,
    )
  }
}

function ignore() {}
