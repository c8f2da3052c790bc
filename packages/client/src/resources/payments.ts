import type { CreatePaymentRequest, CreateRefundRequest, Payment, Refund } from '@chargekit/schemas'
import {
  paymentsCreate,
  paymentsList,
  paymentsRefund,
  paymentsRetrieve,
} from '@chargekit/schemas/operations'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { answerValidator } from './answer-validators'
import { paramsObject } from './arguments'
import { listPages } from './list-pages'
import type { PaymentListParams } from './list-params'
import { operationSender } from './operation-call'

export interface PaymentsResource {
  /** Captures (part of) an authorized instrument. */
  create(params: CreatePaymentRequest, options?: RequestOptions): ApiPromise<Payment>
  /** The payment as it is now. */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Payment>
  /** Payments, newest first, optionally only those of one charge or instrument. */
  list(params?: PaymentListParams, options?: RequestOptions): PagePromise<Payment>
  /** Refunds (part of) a successful payment. */
  refund(id: string, params: CreateRefundRequest, options?: RequestOptions): ApiPromise<Refund>
}

export function paymentsResource(call: SendCall): PaymentsResource {
  const send = operationSender(call, answerValidator)
  return {
    create: (params, options) =>
      send(paymentsCreate, [], () => paramsObject(paymentsCreate.id, params, true), options),
    retrieve: (id, options) => send(paymentsRetrieve, [id], undefined, options),
    list: (params, options) => listPages(call, paymentsList, params, options),
    refund: (id, params, options) =>
      send(paymentsRefund, [id], () => paramsObject(paymentsRefund.id, params, true), options),
  }
}
