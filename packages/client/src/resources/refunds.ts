import type { CreateRefundOfPaymentRequest, Refund } from '@chargekit/schemas'
import { refundShape } from '@chargekit/schemas/response-checks'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { listValidator, shapeValidator } from '../schema-validators'
import { paramsObject, pathId } from './arguments'
import { listPages } from './list-pages'
import type { RefundListParams } from './list-params'

/** Shared with `payments.refund`, which answers with the refund it created. */
export const refundValidator = /* @__PURE__ */ shapeValidator('refund', refundShape)
const refundListValidator = /* @__PURE__ */ listValidator(refundValidator)

export interface RefundsResource {
  /**
   * POST /v2/refunds: refunds (part of) the successful payment `params.payment`; the same as
   * `payments.refund(paymentId, …)`. Refunds and open or lost disputes together never exceed
   * what the payment captured.
   */
  create(params: CreateRefundOfPaymentRequest, options?: RequestOptions): ApiPromise<Refund>
  /** GET /v2/refunds/{id} */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Refund>
  /** GET /v2/refunds, newest first, optionally only those of one payment, charge or status. */
  list(params?: RefundListParams, options?: RequestOptions): PagePromise<Refund>
}

export function refundsResource(call: SendCall): RefundsResource {
  return {
    create: (params, options) =>
      call(() => ({
        method: 'POST',
        path: '/refunds',
        query: '',
        body: paramsObject('refunds.create', params, true),
        validator: refundValidator,
        options,
      })),
    retrieve: (id, options) =>
      call(() => ({
        method: 'GET',
        path: `/refunds/${pathId('refunds.retrieve', 'id', id, 're_…')}`,
        query: '',
        body: undefined,
        validator: refundValidator,
        options,
      })),
    list: (params, options) =>
      listPages(call, 'refunds.list', '/refunds', refundListValidator, params, options),
  }
}
