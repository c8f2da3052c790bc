import type { LoggedAttempt, ReceiverRecord } from '../delivery/attempt-log'
import type {
  AttemptRow,
  InsightRange,
  ReceiverAnswer,
  ReceiverSummary,
} from './browser/data-shapes'
import { bucketsFor, percentile } from './time-window'

/** Failed attempts a receiver's page lists, newest first. */
export const failuresShown = 20

const isSuccess = (attempt: LoggedAttempt) =>
  attempt.resultStatus >= 200 && attempt.resultStatus < 300

export function receiverSummary(receiver: ReceiverRecord): ReceiverSummary {
  const last = receiver.recent.at(-1)
  return {
    url: receiver.eventsUrl,
    attempts: receiver.attempts,
    succeeded: receiver.succeeded,
    success_rate: receiver.attempts === 0 ? 0 : receiver.succeeded / receiver.attempts,
    last_attempt: last === undefined ? null : attemptRow(last),
    median_ms: percentile(durationsOf(receiver.recent), 0.5),
  }
}

/** One events URL in `range`: attempts, successes and durations per bucket, the latest failures. */
export function receiverDetail(
  receiver: ReceiverRecord,
  range: InsightRange,
  now: Date,
): ReceiverAnswer {
  const buckets = bucketsFor(range, now)
  const inBucket = buckets.window.buckets.map(() => [] as LoggedAttempt[])
  for (const attempt of receiver.recent) {
    const index = buckets.indexOf(attempt.at)
    if (index !== undefined) inBucket[index]?.push(attempt)
  }
  return {
    ...receiverSummary(receiver),
    ...buckets.window,
    series: inBucket.map((attempts) => {
      const durations = durationsOf(attempts)
      return {
        attempts: attempts.length,
        succeeded: attempts.filter(isSuccess).length,
        p50_ms: percentile(durations, 0.5),
        p95_ms: percentile(durations, 0.95),
      }
    }),
    failures: receiver.recent
      .filter((attempt) => !isSuccess(attempt))
      .slice(-failuresShown)
      .reverse()
      .map(attemptRow),
    kept: receiver.recent.length,
  }
}

function durationsOf(attempts: readonly LoggedAttempt[]): number[] {
  return attempts.map((attempt) => attempt.durationMs).sort((a, b) => a - b)
}

function attemptRow(attempt: LoggedAttempt): AttemptRow {
  return {
    at: attempt.at,
    event_id: attempt.eventId,
    event_type: attempt.eventType,
    charge_id: attempt.chargeId,
    result_status: attempt.resultStatus,
    failure: attempt.failure,
    duration_ms: attempt.durationMs,
    kind: attempt.kind,
  }
}
