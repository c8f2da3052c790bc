import type { Context } from 'hono'
import { streamSSE } from 'hono/streaming'
import type { SandboxLogger } from '../logger'
import type { EventFilter } from '../storage/records'
import type { SandboxStore } from '../storage/sandbox-store'
import { ApiProblem, invalidParameters } from './api-problem'

/** How many streams may be open at once: per account, and over the whole sandbox. */
export interface EventStreamLimits {
  perAccount: number
  total: number
}

export interface EventStreamOptions {
  store: SandboxStore
  logger: SandboxLogger
  limits?: Partial<EventStreamLimits>
  /**
   * How often each stream also looks for events that the store did not announce: those other
   * sandbox processes sharing its database stored. @default 1000
   */
  pollMs?: number
  /** A comment line after this long without a message, so proxies keep the connection. @default 15000 */
  keepAliveMs?: number
}

/** Where a stream starts: after an event it resumes from, at a time, or with what comes next. */
export type StreamStart = { after: string } | { createdGte: string } | { now: true }

export interface EventStreams {
  /**
   * Answers `GET /v2/events/stream` for the account: the events matching `filter` from `start`
   * on, as Server-Sent Events, until the client goes away or the sandbox stops. Refused with
   * 429 past the limits, 400 when `start` names an event the account does not have.
   */
  open(c: Context, accountId: string, start: StreamStart, filter: EventFilter): Promise<Response>
  /** Ends every stream and refuses new ones: the sandbox is stopping. */
  close(): void
}

const defaultLimits: EventStreamLimits = { perAccount: 10, total: 200 }
/** Events read from the store at once; a stream behind by more reads again at once. */
const batchSize = 100
/** How long a client waits before reconnecting, as the stream tells the browser's EventSource. */
const reconnectMs = 1000
const droppedCursor =
  'The sandbox no longer keeps the last event this stream sent; reconnect without Last-Event-ID.'
const readFailed = 'The sandbox could not read its events (its log says why); reconnect to resume.'

/**
 * The account's events as Server-Sent Events. Each stream reads the store on from the last event
 * it sent (the store's recording order, so nothing is skipped or sent twice), whenever the store
 * announces an event of its account and at least every `pollMs`. An event's id is the message
 * id: a client that lost its connection sends it back as `Last-Event-ID` and the new stream goes
 * on after it.
 */
export function createEventStreams(options: EventStreamOptions): EventStreams {
  const { store, logger } = options
  const limits = { ...defaultLimits, ...options.limits }
  const pollMs = options.pollMs ?? 1000
  const keepAliveMs = options.keepAliveMs ?? 15_000
  /** Each open stream's wake-up, by account. */
  const open = new Map<string, Set<Subscriber>>()
  let count = 0
  let closed = false
  // While any stream is open: the store's announcements, and a timer for what it cannot announce.
  let poll: NodeJS.Timeout | undefined
  let stopListening: (() => void) | undefined

  function listen() {
    stopListening ??= store.onEventAdded?.((accountId) => {
      for (const subscriber of open.get(accountId) ?? []) subscriber.wake()
    })
    poll ??= setInterval(() => {
      for (const streams of open.values()) for (const each of streams) each.wake()
    }, pollMs).unref()
  }

  function stopIfIdle() {
    if (count > 0) return
    stopListening?.()
    stopListening = undefined
    clearInterval(poll)
    poll = undefined
  }

  function subscribe(accountId: string): Subscriber {
    const subscriber = new Subscriber()
    const streams = open.get(accountId) ?? new Set()
    streams.add(subscriber)
    open.set(accountId, streams)
    count++
    subscriber.onEnd(() => {
      streams.delete(subscriber)
      if (streams.size === 0) open.delete(accountId)
      count--
      stopIfIdle()
    })
    listen()
    return subscriber
  }

  async function cursorAt(accountId: string, start: StreamStart): Promise<string | undefined> {
    if ('after' in start) {
      if ((await store.getEvent(accountId, start.after)) !== undefined) return start.after
      throw invalidParameters({
        'Last-Event-ID': [
          `Expected the id of an event of this account, the last one a stream sent; got ${JSON.stringify(start.after)}. Reconnect without it to follow new events.`,
        ],
      })
    }
    if ('createdGte' in start) return undefined
    // From now: after the newest event stored so far.
    const { items } = await store.listEvents(accountId, {}, { offset: 0, limit: 1 })
    return items[0]?.id
  }

  return {
    async open(c, accountId, start, filter) {
      if (closed) {
        throw new ApiProblem(503, {
          message: 'The sandbox is stopping: reconnect to its next start',
        })
      }
      const accountStreams = open.get(accountId)?.size ?? 0
      if (accountStreams >= limits.perAccount || count >= limits.total) {
        throw new ApiProblem(
          429,
          {
            message:
              accountStreams >= limits.perAccount
                ? `This account has ${limits.perAccount} event streams open already: close one (each chargekit listen holds one) and retry after 5 s (Retry-After)`
                : `The sandbox has ${limits.total} event streams open already: retry after 5 s (Retry-After)`,
            failure_code: '02.01.0000',
            failure_description: 'Too Many Tries',
          },
          { 'retry-after': '5' },
        )
      }
      // Subscribed before the cursor is read: an event stored meanwhile wakes the stream, which
      // finds it after the cursor.
      const subscriber = subscribe(accountId)
      let cursor: string | undefined
      try {
        cursor = await cursorAt(accountId, start)
      } catch (error) {
        subscriber.end()
        throw error
      }
      const streamFilter: EventFilter =
        'createdGte' in start ? { ...filter, createdGte: start.createdGte } : filter
      c.header('x-accel-buffering', 'no')
      return streamSSE(c, async (stream) => {
        stream.onAbort(() => subscriber.end())
        subscriber.onEnd(() => stream.close())
        await stream.write(`retry: ${reconnectMs}\n\n`)
        try {
          while (!subscriber.ended) {
            const events = await store.listEventsAfter(accountId, cursor, streamFilter, batchSize)
            if (events === undefined) {
              // The store dropped the event the stream stood at (the in-memory store keeps
              // the newest charges only): the client reconnects and is told to start afresh.
              await stream.writeSSE({ event: 'error', data: droppedCursor })
              break
            }
            for (const event of events) {
              if (subscriber.ended) break
              await stream.writeSSE({ id: event.id, data: JSON.stringify(event) })
              cursor = event.id
            }
            if (events.length === batchSize) continue
            if ((await subscriber.nextWake(keepAliveMs)) === 'idle') {
              await stream.write(': keep-alive\n\n')
            }
          }
        } catch (error) {
          // The details go to the log only: a database error's text is no client's business.
          logger.error('event stream failed', { account: accountId, error })
          await stream.writeSSE({ event: 'error', data: readFailed })
        } finally {
          subscriber.end()
        }
      })
    },
    close() {
      closed = true
      for (const streams of open.values()) for (const each of [...streams]) each.end()
      stopIfIdle()
    },
  }
}

/**
 * One open stream's signals: `wake()` when there may be new events (kept until the stream next
 * waits, so one that comes during a read is not lost), `end()` when it must stop.
 */
class Subscriber {
  ended = false
  #woken = false
  #resume: (() => void) | undefined
  readonly #onEnd: (() => void)[] = []

  wake(): void {
    this.#woken = true
    this.#resume?.()
  }

  onEnd(listener: () => void): void {
    this.#onEnd.push(listener)
  }

  end(): void {
    if (this.ended) return
    this.ended = true
    this.#resume?.()
    for (const listener of this.#onEnd.splice(0)) listener()
  }

  /** Resolves when woken or ended (`'woken'`), or after `idleMs` with nothing (`'idle'`). */
  nextWake(idleMs: number): Promise<'woken' | 'idle'> {
    if (this.#woken || this.ended) {
      this.#woken = false
      return Promise.resolve('woken')
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#resume = undefined
        resolve('idle')
      }, idleMs)
      this.#resume = () => {
        clearTimeout(timer)
        this.#resume = undefined
        this.#woken = false
        resolve('woken')
      }
    })
  }
}
