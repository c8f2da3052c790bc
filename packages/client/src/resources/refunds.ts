import type { CreateRefundOfPaymentRequest, Refund } from '@chargekit/schemas'
import { refundsCreate, refundsList, refundsRetrieve } from '@chargekit/schemas/operations'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { answerValidator } from './answer-validators'
import { paramsObject } from './arguments'
import { listPages } from './list-pages'
import type { RefundListParams } from './list-params'
import { operationSender } from './operation-call'

export interface RefundsResource {
  /**
   * Refunds (part of) the successful payment `params.payment`; the same as
   * `payments.refund(paymentId, …)`. Refunds and open or lost disputes together never exceed
   * what the payment captured.
   */
  create(params: CreateRefundOfPaymentRequest, options?: RequestOptions): ApiPromise<Refund>
  /** The refund as it is now. */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Refund>
  /** Refunds, newest first, optionally only those of one payment, charge or status. */
  list(params?: RefundListParams, options?: RequestOptions): PagePromise<Refund>
}

export function refundsResource(call: SendCall): RefundsResource {
  const send = operationSender(call, answerValidator)
  return {
    create: (params, options) =>
      send(refundsCreate, [], () => paramsObject(refundsCreate.id, params, true), options),
    retrieve: (id, options) => send(refundsRetrieve, [id], undefined, options),
    list: (params, options) => listPages(call, refundsList, params, options),
  }
}
