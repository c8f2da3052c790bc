import type { CreatePaymentRequest, CreateRefundRequest, Payment, Refund } from '@chargekit/schemas'
import { paymentShape } from '@chargekit/schemas/response-checks'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { listValidator, shapeValidator } from '../schema-validators'
import { paramsObject, pathId } from './arguments'
import { listPages } from './list-pages'
import type { PaymentListParams } from './list-params'
import { refundValidator } from './refunds'

const paymentValidator = /* @__PURE__ */ shapeValidator('payment', paymentShape)
const paymentListValidator = /* @__PURE__ */ listValidator(paymentValidator)

export interface PaymentsResource {
  /** POST /v2/payments: captures (part of) an authorized instrument. */
  create(params: CreatePaymentRequest, options?: RequestOptions): ApiPromise<Payment>
  /** GET /v2/payments/{id} */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Payment>
  /** GET /v2/payments, newest first, optionally only those of one charge or instrument. */
  list(params?: PaymentListParams, options?: RequestOptions): PagePromise<Payment>
  /** POST /v2/payments/{id}/refund: refunds (part of) a successful payment. */
  refund(id: string, params: CreateRefundRequest, options?: RequestOptions): ApiPromise<Refund>
}

export function paymentsResource(call: SendCall): PaymentsResource {
  return {
    create: (params, options) =>
      call(() => ({
        method: 'POST',
        path: '/payments',
        query: '',
        body: paramsObject('payments.create', params, true),
        validator: paymentValidator,
        options,
      })),
    retrieve: (id, options) =>
      call(() => ({
        method: 'GET',
        path: `/payments/${pathId('payments.retrieve', 'id', id, 'pa_…')}`,
        query: '',
        body: undefined,
        validator: paymentValidator,
        options,
      })),
    list: (params, options) =>
      listPages(call, 'payments.list', '/payments', paymentListValidator, params, options),
    refund: (id, params, options) =>
      call(() => ({
        method: 'POST',
        path: `/payments/${pathId('payments.refund', 'id', id, 'pa_…')}/refund`,
        query: '',
        body: paramsObject('payments.refund', params, true),
        validator: refundValidator,
        options,
      })),
  }
}
