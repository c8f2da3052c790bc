import type { Event, EventType } from '@chargekit/schemas'
import { eventsStream } from '@chargekit/schemas/operations'
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { abortError } from '../attempt'
import type { ClientConfig } from '../config'
import { decodeResponse, parseErrorBody } from '../decode-response'
import { errorFromResponse } from '../error-from-response'
import { ConnectionError } from '../errors'
import type { HttpAnswer } from '../http-transport'
import { globalFetch } from '../option-checks'
import { toQueryString } from '../query-string'
import { isRetryableStatus, parseRetryAfter } from '../retry-policy'
import { eventValidator } from '../schema-validators'

/** Which events `events.stream` sends, and where it starts. */
export interface EventStreamParams {
  /** One type or several (any of them); default every type. */
  type?: EventType | readonly EventType[]
  /**
   * Go on after this event (the id of the last one handled, such as one a stream sent before a
   * restart of your program): every event recorded after it follows, none twice.
   */
  lastEventId?: string
  /** Without `lastEventId`: start with the events created at or after this time. Default: now. */
  created_gte?: string | Date
}

export interface EventStreamOptions {
  /** Ends the stream: the loop over it finishes. */
  signal?: AbortSignal
  /** Told each time a connection is open: every event stored from then on will follow. */
  onOpen?(): void
  /**
   * Told when the connection dropped (the service restarted, a network fault) and the stream is
   * about to reconnect, after `delayMs`, resuming after the last event it yielded.
   */
  onReconnect?(reason: Error, delayMs: number): void
}

/** What a stream's loop sees of one connection: its events, then how it ended. */
type Connection = AsyncGenerator<Event, { retryAfterMs?: number }>

/** How long to wait before reconnecting when the service said nothing else, and at most. */
const reconnectDefaultMs = 1000
const reconnectMaxMs = 30_000

/**
 * `client.events.stream()`: the account's new events as the service stores them, through its
 * Server-Sent Events stream (a sandbox endpoint). Each message is checked as `events.retrieve`
 * checks an event. A dropped connection is reconnected with `Last-Event-ID`, so the loop sees
 * every event once, in recording order; an answer that will not change on retrying (401, 404 from
 * a service without the stream, 400 for a `lastEventId` the account does not have) is thrown as
 * the same typed error any other call throws.
 */
export function eventStream(config: ClientConfig) {
  return (
    params: EventStreamParams = {},
    options: EventStreamOptions = {},
  ): AsyncIterable<Event> => ({
    [Symbol.asyncIterator]: () => follow(config, params, options),
  })
}

async function* follow(
  config: ClientConfig,
  params: EventStreamParams,
  { signal, onOpen, onReconnect }: EventStreamOptions,
): AsyncGenerator<Event, void> {
  let lastEventId = params.lastEventId
  let failures = 0
  const query = toQueryString({
    type: params.type,
    ...(lastEventId === undefined ? { created_gte: params.created_gte } : {}),
  })
  const path = new URL(config.apiUrl).pathname + eventsStream.path.slice('/v2'.length)
  const identity = { method: 'GET', path, idempotencyKey: undefined, attempts: 1 }
  while (!signal?.aborted) {
    let ended: { retryAfterMs?: number; reason: Error }
    try {
      const connection: Connection = connect(config, {
        url: `${config.apiUrl}${eventsStream.path.slice('/v2'.length)}${query}`,
        path,
        lastEventId,
        signal,
        onOpen,
      })
      try {
        for (;;) {
          const next = await connection.next()
          if (next.done) {
            ended = {
              ...next.value,
              reason: new ConnectionError(`GET ${path}: the service ended the stream`, identity),
            }
            break
          }
          lastEventId = next.value.id
          failures = 0
          yield next.value
        }
      } finally {
        // The loop over the stream ended early (`break`): the connection closes with it.
        await connection.return({})
      }
    } catch (error) {
      if (signal?.aborted) return
      if (!(error instanceof RetryableStreamError)) throw error
      ended = {
        reason: error.cause as Error,
        ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
      }
    }
    failures++
    const delayMs = Math.min(
      ended.retryAfterMs ?? reconnectDefaultMs * 2 ** Math.min(failures - 1, 5),
      reconnectMaxMs,
    )
    onReconnect?.(ended.reason, delayMs)
    try {
      await config.sleep(delayMs, signal, () => abortError(identity, signal as AbortSignal))
    } catch {
      return
    }
  }
}

/** A connection failure the stream reconnects after, with the wait the service asked for. */
class RetryableStreamError extends Error {
  constructor(
    cause: Error,
    readonly retryAfterMs?: number,
  ) {
    super(cause.message, { cause })
  }
}

/**
 * One connection: its events as they arrive, until the service ends it. Throws a
 * {@link RetryableStreamError} for a failure worth reconnecting after, any other error as is.
 */
async function* connect(
  config: ClientConfig,
  {
    url,
    path,
    lastEventId,
    signal,
    onOpen,
  }: {
    url: string
    path: string
    lastEventId: string | undefined
    signal: AbortSignal | undefined
    onOpen: (() => void) | undefined
  },
): Connection {
  const identity = { method: 'GET', path, idempotencyKey: undefined, attempts: 1 }
  const headers: Record<string, string> = {
    accept: 'text/event-stream',
    authorization: config.authorization,
    ...(config.userAgent === undefined ? {} : { 'user-agent': config.userAgent }),
    ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
  }
  const fetch = config.fetch ?? globalFetch('events.stream')
  let response: Response
  try {
    response = await fetch(url, {
      method: 'GET',
      headers,
      ...(signal === undefined ? {} : { signal }),
    })
  } catch (error) {
    if (signal?.aborted) throw abortError(identity, signal)
    const reason = new ConnectionError(
      config.redact(`GET ${path} failed: ${(error as Error).message}`),
      identity,
    )
    throw new RetryableStreamError(reason)
  }
  if (!response.ok || response.body === null) {
    const failure = errorFromResponse({
      method: 'GET',
      path,
      declines: undefined,
      status: response.status,
      headers: response.headers,
      body: parseErrorBody(await response.text()),
      idempotencyKey: undefined,
      attempts: 1,
      redact: config.redact,
      credentialsHint: config.credentialsHint,
      lookupErrorCode: config.lookupErrorCode,
    })
    if (!isRetryableStatus(response.status)) throw failure
    throw new RetryableStreamError(
      failure,
      parseRetryAfter(response.headers.get('retry-after'), Date.now()),
    )
  }
  onOpen?.()
  const messages: EventSourceMessage[] = []
  let retryAfterMs: number | undefined
  const parser = createParser({
    onEvent: (message) => messages.push(message),
    onRetry: (ms) => {
      retryAfterMs = ms
    },
  })
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<string>
      try {
        chunk = await reader.read()
      } catch (error) {
        if (signal?.aborted) throw abortError(identity, signal)
        throw new RetryableStreamError(
          new ConnectionError(
            config.redact(`GET ${path}: the connection dropped: ${(error as Error).message}`),
            identity,
          ),
          retryAfterMs,
        )
      }
      if (chunk.done) return retryAfterMs === undefined ? {} : { retryAfterMs }
      parser.feed(chunk.value)
      for (const message of messages.splice(0)) {
        // The service tells of a problem on its side: reconnecting resumes after the last event.
        if (message.event === 'error') {
          throw new RetryableStreamError(
            new ConnectionError(config.redact(`GET ${path}: ${message.data}`), identity),
            retryAfterMs,
          )
        }
        if (message.event !== undefined && message.event !== 'message') continue
        yield checkedEvent(config, path, response, message)
      }
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
}

/** A message's event, read and checked as `events.retrieve` reads its answer. */
function checkedEvent(
  config: ClientConfig,
  path: string,
  response: Response,
  message: EventSourceMessage,
): Event {
  const answer: HttpAnswer = {
    status: response.status,
    header: (name) => response.headers.get(name) ?? undefined,
    headers: () => response.headers,
    text: message.data,
  }
  return decodeResponse(
    { method: 'GET', validator: eventValidator },
    path,
    answer,
    config.validate,
    config.redact,
  )
}
