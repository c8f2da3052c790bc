import {
  AbortError,
  ApiError,
  type ChargekitClient,
  type Event,
  type EventType,
  NotFoundError,
  ValidationError,
} from '@chargekit/client'
import { sleep } from '../poll'

export interface FollowOptions {
  /** Events created at or after this ISO time; default: only events created from now on. */
  since?: string | undefined
  /** Only these types; default all. */
  types?: readonly EventType[] | undefined
  pollIntervalMs: number
  signal: AbortSignal
  /** A poll failed in a way that may heal (no connection, 429, 5xx); the next poll retries. */
  onRetry(error: unknown): void
  /**
   * The starting point is settled: every event created from now on will be yielded, through
   * the service's event stream (`push`) or by searching every `pollIntervalMs` (`poll`).
   */
  onReady(how: 'push' | 'poll'): void
  /**
   * The stream resumed without the event it stood at (a sandbox restarted without its state):
   * it follows new events from now on.
   */
  onRestart(lastEventId: string): void
}

/**
 * The account's new events, oldest first: through the service's event stream when it has one
 * (a sandbox), each the moment it is stored, resuming after a dropped connection with no event
 * lost or repeated; otherwise (the production service answers 404 there) by searching.
 */
export async function* followEvents(
  client: ChargekitClient,
  options: FollowOptions,
): AsyncGenerator<Event> {
  let lastEventId: string | undefined
  let since = options.since
  for (;;) {
    const stream = client.events.stream(
      {
        ...(options.types === undefined ? {} : { type: options.types }),
        ...(lastEventId === undefined ? {} : { lastEventId }),
        ...(since === undefined ? {} : { created_gte: since }),
      },
      {
        signal: options.signal,
        onOpen: () => {
          if (lastEventId === undefined) options.onReady('push')
        },
        onReconnect: (reason) => options.onRetry(reason),
      },
    )
    try {
      for await (const event of stream) {
        lastEventId = event.id
        yield event
        if (options.signal.aborted) return
      }
      return
    } catch (error) {
      if (options.signal.aborted || error instanceof AbortError) return
      if (error instanceof NotFoundError && lastEventId === undefined) {
        yield* searchEvents(client, options)
        return
      }
      if (!(error instanceof ValidationError) || lastEventId === undefined) throw error
      options.onRestart(lastEventId)
      lastEventId = undefined
      since = undefined
    }
  }
}

/**
 * How far back each poll looks again: an event stored a moment after a newer one (two requests
 * finishing together, several sandbox processes on one database) is still found.
 */
const lookbackMs = 5_000

/**
 * The account's new events, oldest first, through the event search: each poll asks for every
 * event created since the newest one seen (less the look-back), over as many pages as there
 * are, and yields those not seen yet. Ids seen within the look-back window are remembered, so no
 * event is yielded twice, neither across polls nor across pages.
 */
async function* searchEvents(
  client: ChargekitClient,
  options: FollowOptions,
): AsyncGenerator<Event> {
  const { signal } = options
  const seen = new Map<string, number>()
  let floor = options.since === undefined ? undefined : Date.parse(options.since)
  let newest: number | undefined
  if (options.since === undefined) {
    // From now on: everything up to the newest existing event counts as seen.
    const latest = await untilHealthy(() => search(client, options, undefined, 1), options)
    const mark = latest?.[0]?.created_at
    if (mark !== undefined) {
      floor = Date.parse(mark)
      const existing = await untilHealthy(() => search(client, options, floor), options)
      for (const event of existing ?? []) seen.set(event.id, Date.parse(event.created_at))
    }
  }
  options.onReady('poll')
  while (!signal.aborted) {
    const from = newest === undefined ? floor : Math.max(floor ?? 0, newest - lookbackMs)
    const events = await untilHealthy(() => search(client, options, from), options)
    // Oldest first; the service's order breaks ties, reversed with the list.
    const fresh = (events ?? [])
      .reverse()
      .filter((event) => !seen.has(event.id))
      .sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at))
    for (const event of fresh) {
      const created = Date.parse(event.created_at)
      seen.set(event.id, created)
      newest = Math.max(newest ?? created, created)
      yield event
      if (signal.aborted) return
    }
    if (newest !== undefined) {
      for (const [id, created] of seen) if (created < newest - lookbackMs) seen.delete(id)
    }
    await sleep(options.pollIntervalMs, signal)
  }
}

/** Every event created at or after `from` (ms), newest first, all pages; or the first `limit`. */
async function search(
  client: ChargekitClient,
  options: FollowOptions,
  from: number | undefined,
  limit = 1_000_000,
): Promise<Event[]> {
  const events: Event[] = []
  const params = {
    per_page: Math.min(limit, 100),
    ...(from === undefined ? {} : { created_gte: new Date(from).toISOString() }),
    ...(options.types === undefined ? {} : { type: options.types }),
  }
  // `for await` skips the repeats that events created meanwhile push onto the next page.
  for await (const event of client.events.list(params, { signal: options.signal })) {
    events.push(event)
    if (events.length >= limit) break
  }
  return events
}

/**
 * Runs a search until it answers; undefined once stopped. Wrong credentials, a bad request or a
 * missing endpoint will not heal and are thrown.
 */
async function untilHealthy<T>(
  attempt: () => Promise<T>,
  options: FollowOptions,
): Promise<T | undefined> {
  while (!options.signal.aborted) {
    try {
      return await attempt()
    } catch (error) {
      if (error instanceof AbortError || options.signal.aborted) return undefined
      if (error instanceof ApiError && error.status < 500 && error.status !== 429) throw error
      options.onRetry(error)
      await sleep(options.pollIntervalMs, options.signal)
    }
  }
  return undefined
}
