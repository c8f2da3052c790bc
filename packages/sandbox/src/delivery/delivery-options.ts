import { SandboxError } from '../errors'
import { defaultDeliverySchedule } from './schedule'
import type { DeliveryEngineOptions } from './types'

export interface DeliverySettings {
  timeScale: number
  signingSecrets: ReadonlyMap<string, string>
  concurrency: number
  perOriginConcurrency: number
  perAccountConcurrency: number
  timeoutMs: number
  schedule: readonly number[]
}

/** Checks the options once, up front, so a bad value fails `startSandbox` and never a delivery. */
export function resolveDeliverySettings(options: DeliveryEngineOptions): DeliverySettings {
  if (typeof options.onAttempt !== 'function' || typeof options.loadJob !== 'function') {
    throw new SandboxError(
      'onAttempt and loadJob must be functions: one records each attempt, one reads the delivery of an event',
    )
  }
  const concurrency = positiveInteger('concurrency', options.concurrency, 256)
  const schedule = options.schedule ?? defaultDeliverySchedule
  if (
    !Array.isArray(schedule) ||
    schedule.length === 0 ||
    !schedule.every((delay) => Number.isFinite(delay) && delay >= 0)
  ) {
    throw new SandboxError(
      `schedule must be a non-empty array of delays in ms (>= 0), like [0, 5000, 300000]; got ${String(schedule)}`,
    )
  }
  return {
    timeScale: nonNegativeNumber('timeScale', options.timeScale, 1),
    signingSecrets: options.signingSecrets ?? new Map(),
    concurrency,
    perOriginConcurrency: positiveInteger(
      'perOriginConcurrency',
      options.perOriginConcurrency,
      Math.min(64, concurrency),
    ),
    perAccountConcurrency: positiveInteger(
      'perAccountConcurrency',
      options.perAccountConcurrency,
      Math.min(64, concurrency),
    ),
    timeoutMs: positiveNumber('timeoutMs', options.timeoutMs, 10_000),
    schedule,
  }
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new SandboxError(`${name} must be a whole number >= 1; got ${String(value)}`)
  }
  return value
}

function positiveNumber(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isFinite(value) || value <= 0) {
    throw new SandboxError(`${name} must be a finite number > 0; got ${String(value)}`)
  }
  return value
}

function nonNegativeNumber(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isFinite(value) || value < 0) {
    throw new SandboxError(
      `${name} must be a finite number >= 0 (1 = real time, 0.001 = 1000x faster); got ${String(value)}`,
    )
  }
  return value
}
