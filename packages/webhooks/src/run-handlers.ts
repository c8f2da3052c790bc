import type { CompactEvent, Event } from '@chargekit/schemas'
import type { EventHandler, HandlerContext } from './types'

export const TIMED_OUT = Symbol('timed out')

/**
 * Runs every handler of one event concurrently and gives back their failures (empty when all
 * succeeded), in the order they happened; a synchronous throw counts like a rejection. When no
 * handler returned a promise the failures come back at once, so a synchronous handler costs no
 * timer and no extra turn of the event loop; otherwise a promise of them, settled once every
 * handler settled.
 */
export function runHandlers(
  handlers: readonly EventHandler[],
  event: Event,
  context: HandlerContext,
): unknown[] | Promise<unknown[]> {
  const failures: unknown[] = []
  const pending: Promise<void>[] = []
  for (const handler of handlers) {
    try {
      const result = handler(event, context)
      if (isPromiseLike(result)) {
        pending.push(
          Promise.resolve(result).then(undefined, (error: unknown) => {
            failures.push(error)
          }),
        )
      }
    } catch (error) {
      failures.push(error)
    }
  }
  if (pending.length === 0) return failures
  return Promise.all(pending).then(() => failures)
}

/**
 * The context handed to one event's handlers. Its AbortController is made only when a handler
 * reads `signal` or the run times out: most handlers never look, and making one per delivery
 * showed in profiles of the receiver.
 */
export function createHandlerContext(compact: CompactEvent | undefined): {
  context: HandlerContext
  abort(reason: unknown): void
} {
  let controller: AbortController | undefined
  const controllerOf = () => {
    controller ??= new AbortController()
    return controller
  }
  return {
    context: {
      get signal() {
        return controllerOf().signal
      },
      compact,
    },
    // Aborts even a signal nobody read yet: a handler may still read it after its next await.
    abort: (reason) => controllerOf().abort(reason),
  }
}

/**
 * Resolves with the failures once the handlers settled, or with `TIMED_OUT` once `ms` passed
 * first. `failures` never rejects: `runHandlers` catches every failure.
 */
export function failuresWithin(
  failures: Promise<unknown[]>,
  ms: number,
): Promise<unknown[] | typeof TIMED_OUT> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms, TIMED_OUT)
    void failures.then((settled) => {
      clearTimeout(timer)
      resolve(settled)
    })
  })
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function'
}
