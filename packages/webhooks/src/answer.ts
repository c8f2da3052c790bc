import type { WebhooksError } from './errors'
import type { DeliveryResponse, ReceiveResult } from './types'

/** Seconds the sender should wait before retrying a retryable refusal (its 2nd attempt is 5 s). */
const RETRY_AFTER_SECONDS = '5'

export function answerReceived({ status, event }: ReceiveResult): DeliveryResponse {
  return json(200, { received: true, status, id: event.id, type: event.type })
}

export function answerError(error: WebhooksError): DeliveryResponse {
  const answer = json(error.status, {
    error: { code: error.code, message: publicMessage(error) },
  })
  if (error.code === 'method_not_allowed') answer.headers.allow = 'POST'
  if (error.retryable) answer.headers['retry-after'] = RETRY_AFTER_SECONDS
  return answer
}

/** A handler's own error text may hold internals; the sender only learns what happened. */
function publicMessage(error: WebhooksError): string {
  switch (error.code) {
    case 'handler_failed':
      return 'A handler failed; the event was released and will run again on the next delivery.'
    case 'internal_error':
      return 'The receiver failed unexpectedly; the delivery will be processed on a retry.'
    default:
      return error.message
  }
}

/** A new headers record per answer: adapters hand it to the transport, which may mutate it. */
function json(status: number, body: unknown): DeliveryResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: JSON.stringify(body),
  }
}
