import { mustGet } from '../../lifecycle/objects'
import { createPayment } from '../../lifecycle/payments'
import { createRefund } from '../../lifecycle/refunds'
import type { ApiHandlers } from '../operation-routes'
import { listOf } from './object-routes'

export function paymentHandlers(): Pick<
  ApiHandlers,
  'payments.create' | 'payments.retrieve' | 'payments.list' | 'payments.refund' | 'refunds.create'
> {
  return {
    'payments.create': ({ body, step }) => createPayment(step, body),
    'payments.retrieve': ({ params, step }) => mustGet(step, 'payment', params.id ?? ''),
    'payments.list': listOf('payment'),
    'payments.refund': ({ params, body, step }) => createRefund(step, params.id ?? '', body),
    // The same refund with the payment named in the body, as the production service also takes it.
    'refunds.create': ({ body, step }) => {
      const { payment, ...refund } = body
      return createRefund(step, payment, refund)
    },
  }
}
