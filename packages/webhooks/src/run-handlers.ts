import type { Event } from '@chargekit/schemas'
import type { EventHandler } from './types'

export const TIMED_OUT = Symbol('timed out')

/**
 * Runs every handler of one event concurrently and resolves with the failures (empty when all
 * succeeded). A synchronous throw counts like a rejection.
 */
export async function runHandlers(
  handlers: readonly EventHandler[],
  event: Event,
  signal: AbortSignal,
): Promise<unknown[]> {
  const results = await Promise.allSettled(
    handlers.map(async (handler) => {
      await handler(event, { signal })
    }),
  )
  return results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []))
}

/** Resolves with the promise's value, or `TIMED_OUT` after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
