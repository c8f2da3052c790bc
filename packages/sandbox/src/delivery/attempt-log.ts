import type { AttemptKind, DeliveryAttempt, DeliveryJob } from './types'

/** One delivery attempt as the dashboard shows it: never the body or the headers sent. */
export interface LoggedAttempt {
  /** When the attempt was sent, ISO 8601. */
  at: string
  eventId: string
  eventType: string
  chargeId: string
  /** The receiver's HTTP status; 0 when none came. */
  resultStatus: number
  /** Why no status came (`ECONNREFUSED`, `timeout after 10 s`); null when one did. */
  failure: string | null
  durationMs: number
  kind: AttemptKind
}

/** One events URL of an account: its totals since the sandbox started, and its latest attempts. */
export interface ReceiverRecord {
  eventsUrl: string
  attempts: number
  succeeded: number
  /** Oldest first; the latest {@link AttemptLogLimits.attemptsPerReceiver} only. */
  recent: readonly LoggedAttempt[]
}

export interface AttemptLogLimits {
  /** Attempts kept in detail per events URL (the totals count every one). */
  attemptsPerReceiver: number
  /** Events URLs kept per account; the one attempted least recently goes first. */
  receiversPerAccount: number
}

/**
 * What this sandbox process's deliveries did, per account and events URL: the attempts' statuses,
 * failure reasons and durations, which the events themselves do not keep (their `retries_log` has
 * times and statuses only). In memory and bounded, like the recent API requests: a dashboard's
 * view of recent behaviour, not a record that outlives the process.
 */
export interface DeliveryAttemptLog {
  record(job: DeliveryJob, attempt: DeliveryAttempt): void
  /** The account's events URLs, most recently attempted first. */
  receivers(accountId: string): readonly ReceiverRecord[]
  receiver(accountId: string, eventsUrl: string): ReceiverRecord | undefined
}

const defaultLimits: AttemptLogLimits = { attemptsPerReceiver: 500, receiversPerAccount: 50 }

export function createDeliveryAttemptLog(
  limits: Partial<AttemptLogLimits> = {},
): DeliveryAttemptLog {
  const { attemptsPerReceiver, receiversPerAccount } = { ...defaultLimits, ...limits }
  // Maps iterate in insertion order; re-inserting on each attempt keeps the least recent first.
  const byAccount = new Map<string, Map<string, ReceiverRecord & { recent: LoggedAttempt[] }>>()

  return {
    record(job, attempt) {
      let receivers = byAccount.get(job.accountId)
      if (receivers === undefined) {
        receivers = new Map()
        byAccount.set(job.accountId, receivers)
      }
      const receiver = receivers.get(job.eventsUrl) ?? {
        eventsUrl: job.eventsUrl,
        attempts: 0,
        succeeded: 0,
        recent: [],
      }
      receivers.delete(job.eventsUrl)
      receivers.set(job.eventsUrl, receiver)
      for (const [url] of receivers) {
        if (receivers.size <= receiversPerAccount) break
        receivers.delete(url)
      }
      receiver.attempts++
      if (attempt.resultStatus >= 200 && attempt.resultStatus < 300) receiver.succeeded++
      receiver.recent.push({
        at: attempt.at.toISOString(),
        eventId: job.eventId,
        eventType: job.eventType,
        chargeId: job.chargeId,
        resultStatus: attempt.resultStatus,
        failure: attempt.failure ?? null,
        durationMs: attempt.durationMs,
        kind: attempt.kind,
      })
      if (receiver.recent.length > attemptsPerReceiver) receiver.recent.shift()
    },
    receivers(accountId) {
      return [...(byAccount.get(accountId)?.values() ?? [])].reverse()
    },
    receiver(accountId, eventsUrl) {
      return byAccount.get(accountId)?.get(eventsUrl)
    },
  }
}
