import { answerError, answerReceived } from './answer'
import { type DeliveryRef, WebhooksError } from './errors'
import { readHeader } from './headers'
import { parseDelivery } from './parse-delivery'
import { isOverBodyLimit, payloadTooLarge } from './read-body'
import type { SignatureVerifier } from './signature'
import type { DeliveryResponse, IncomingDelivery, ReceiveResult } from './types'

export interface DeliveryResponderOptions {
  verifySignature: SignatureVerifier | undefined
  /** Fetches, dedupes and dispatches a delivery whose `{ id, type }` was read. */
  processDelivery(delivery: DeliveryRef): Promise<ReceiveResult>
  /** Turns anything thrown into the `WebhooksError` to answer with, telling `onError`. */
  reportFailure(error: unknown, delivery: DeliveryRef | undefined): WebhooksError
}

/**
 * The HTTP side of a delivery, for any transport: only POST, a body within the limit, the
 * signature (when a secret is set), the claimed `{ id, type }`; then the processing, and the
 * answer it earned, every failure included.
 */
export function createDeliveryResponder({
  verifySignature,
  processDelivery,
  reportFailure,
}: DeliveryResponderOptions): (incoming: IncomingDelivery) => Promise<DeliveryResponse> {
  return async ({ method, url, headers, body }) => {
    let delivery: DeliveryRef | undefined
    try {
      if (method.toUpperCase() !== 'POST') {
        throw new WebhooksError(
          'method_not_allowed',
          `${method} is not a delivery: events arrive as POST requests.`,
        )
      }
      const text = typeof body === 'string' ? body : await body()
      if (isOverBodyLimit(text)) throw payloadTooLarge()
      // Before anything else: an unsigned request costs no parsing and no event fetch.
      await verifySignature?.(text, headers)
      delivery = parseDelivery({
        url,
        contentType: readHeader(headers, 'content-type'),
        body: text,
      })
      return answerReceived(await processDelivery(delivery))
    } catch (error) {
      return answerError(reportFailure(error, delivery))
    }
  }
}
