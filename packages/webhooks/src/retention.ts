import { WebhooksError } from './errors'

/**
 * How long stores remember a completed event by default: the service retries a failed delivery
 * for about 28 hours, and 30 hours leaves margin for the last retry's own delays.
 */
export const DEFAULT_RETAIN_MS = 30 * 60 * 60 * 1000

/** `retainMs` checked (finite, > 0), or the default; `factory` names the caller in the error. */
export function validRetainMs(factory: string, retainMs: number | undefined): number {
  const value = retainMs ?? DEFAULT_RETAIN_MS
  if (!(Number.isFinite(value) && value > 0)) {
    throw new WebhooksError(
      'invalid_configuration',
      `${factory}: retainMs must be a finite number of milliseconds > 0 (the default, ${DEFAULT_RETAIN_MS}, is 30 hours: the service's retry window with margin); got ${String(retainMs)}.`,
    )
  }
  return value
}

/** "30 h", "12 min", "45 s", "250 ms": for messages about retention. */
export function describeDuration(ms: number): string {
  if (ms >= 3_600_000) return `${Math.round((ms / 3_600_000) * 10) / 10} h`
  if (ms >= 60_000) return `${Math.round((ms / 60_000) * 10) / 10} min`
  if (ms >= 1_000) return `${Math.round((ms / 1_000) * 10) / 10} s`
  return `${Math.round(ms)} ms`
}
