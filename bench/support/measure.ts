import { performance } from 'node:perf_hooks'

export interface RateResult {
  operations: number
  seconds: number
  perSecond: number
}

/**
 * Runs `operation` with `concurrency` callers for `durationMs` after a warm-up, and reports
 * completed operations per second. Callers start the next operation as soon as one finishes.
 */
export async function measureRate(
  operation: () => Promise<unknown>,
  { durationMs = 3_000, warmupMs = 500, concurrency = 1 } = {},
): Promise<RateResult> {
  await runFor(operation, warmupMs, concurrency)
  const started = performance.now()
  const operations = await runFor(operation, durationMs, concurrency)
  const seconds = (performance.now() - started) / 1000
  return { operations, seconds, perSecond: operations / seconds }
}

async function runFor(operation: () => Promise<unknown>, durationMs: number, concurrency: number) {
  const deadline = performance.now() + durationMs
  let operations = 0
  const caller = async () => {
    while (performance.now() < deadline) {
      await operation()
      operations++
    }
  }
  await Promise.all(Array.from({ length: concurrency }, caller))
  return operations
}

/** The p-th percentile (0–100) of a list of numbers, by nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank] as number
}
