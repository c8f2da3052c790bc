import { answerAsCustomer, type CustomerAnswer } from '../../lifecycle/customer-challenges'
import { createDispute, settleDispute } from '../../lifecycle/disputes'
import { settle } from '../../lifecycle/settlements'
import type { HttpSettings } from '../endpoint'
import type { ApiHandlers, OperationInput } from '../operation-routes'

/**
 * Test helpers: what the payment provider and the customer would do. The customer's answers to
 * an authorization waiting for them: approve or decline (an approval page, an app
 * notification), pay (a payment reference), expire (its deadline passes now).
 */
export function testHelperHandlers(
  settings: HttpSettings,
): Pick<
  ApiHandlers,
  | 'testHelpers.settle'
  | 'testHelpers.dispute'
  | 'testHelpers.settleDispute'
  | 'testHelpers.approveInstrument'
  | 'testHelpers.declineInstrument'
  | 'testHelpers.payReference'
  | 'testHelpers.expireInstrument'
> {
  const customer =
    (answer: CustomerAnswer) =>
    async ({ params, step }: OperationInput) => {
      const { instrument } = await answerAsCustomer(step, params.instrumentId ?? '', answer, {
        origin: settings.publicUrl,
        strict: true,
      })
      return instrument
    }
  return {
    'testHelpers.settle': ({ step }) => settle(step),
    'testHelpers.dispute': ({ params, body, step }) =>
      createDispute(step, params.paymentId ?? '', body),
    'testHelpers.settleDispute': ({ params, body, step }) =>
      settleDispute(step, params.disputeId ?? '', body),
    'testHelpers.approveInstrument': customer('approve'),
    'testHelpers.declineInstrument': customer('decline'),
    'testHelpers.payReference': customer('pay'),
    'testHelpers.expireInstrument': customer('expire'),
  }
}
