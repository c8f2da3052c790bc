import { ApiError, ChargekitError, PaymentError } from '@chargekit/client'
import { categoryOf, lookupErrorCode } from '@chargekit/errors'
import type { OrderFailure, PaymentStep } from '../orders/order.js'

/** A decline explained for the customer and the merchant, from the error-code catalogue. */
export interface Decline {
  step: PaymentStep
  code: string | null
  designation: string | null
  description: string | null
  category: string | null
  /** May the same attempt succeed later, unchanged? null when the code is unknown. */
  retryable: boolean | null
}

/** Turns a stored failure (code + the service's failure_description) into a full explanation. */
export function explainFailure(failure: OrderFailure): Decline {
  const info = failure.code ? lookupErrorCode(failure.code) : undefined
  return {
    step: failure.step,
    code: failure.code,
    designation: info?.designation ?? failure.description,
    description: info?.description ?? null,
    category: failure.code ? (categoryOf(failure.code)?.label ?? null) : null,
    retryable: info ? info.retryable : null,
  }
}

/**
 * What a failed API call means for the order. A decline (402) or an illegal transition (409)
 * carries a catalogue code; anything else (service unreachable, a bug) becomes a failure without
 * one. Only codes and the catalogue's texts are kept: never the request, so no card number or
 * credential can end up on a page.
 */
export function failureFromError(step: PaymentStep, error: unknown): OrderFailure {
  // A 402 says which step failed: one call can fail at a later step than it asked for (creating
  // an instrument captured on creation fails at the payment when that capture is declined).
  if (error instanceof PaymentError) {
    return {
      step: error.element ?? step,
      code: error.code ?? null,
      description: error.failureDescription ?? unreachableText(error),
    }
  }
  if (error instanceof ApiError) {
    const description = (error.body as { failure_description?: unknown } | undefined)
      ?.failure_description
    return {
      step,
      code: error.code ?? null,
      description: typeof description === 'string' ? description : unreachableText(error),
    }
  }
  if (error instanceof ChargekitError)
    return { step, code: null, description: unreachableText(error) }
  throw error
}

function unreachableText(error: ChargekitError): string {
  return error instanceof ApiError && error.status < 500
    ? `The payment service refused the request (HTTP ${error.status}).`
    : 'The payment service did not answer. Check the order below before trying again.'
}

export const stepLabels: Record<PaymentStep, string> = {
  charge: 'Charge',
  instrument: 'Authorization',
  payment: 'Capture',
  refund: 'Refund',
  reversal: 'Cancellation',
}
