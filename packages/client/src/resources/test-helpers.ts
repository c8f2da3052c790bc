import type {
  CreateDisputeRequest,
  Dispute,
  SettleDisputeRequest,
  Settlement,
} from '@chargekit/schemas'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { Transport } from '../transport'
import { paramsObject, pathId } from './arguments'
import { disputeValidator } from './disputes'
import { settlementValidator } from './settlements'

/** Test-only endpoints of the sandbox: drive what the processor would do on its own. */
export interface TestHelpersResource {
  /** POST /v2/test/settlements: settles every settleable payment and refund. */
  settle(options?: RequestOptions): ApiPromise<Settlement>
  /** POST /v2/test/payments/{id}/dispute: the customer disputes a successful payment. */
  dispute(
    paymentId: string,
    params?: CreateDisputeRequest,
    options?: RequestOptions,
  ): ApiPromise<Dispute>
  /** POST /v2/test/disputes/{id}/settle: the processor decides the dispute. */
  settleDispute(
    disputeId: string,
    params: SettleDisputeRequest,
    options?: RequestOptions,
  ): ApiPromise<Dispute>
}

export function testHelpersResource(call: Transport): TestHelpersResource {
  return {
    settle: (options) =>
      call(() => ({
        method: 'POST',
        path: '/test/settlements',
        query: '',
        body: undefined,
        validator: settlementValidator,
        options,
      })),
    dispute: (paymentId, params, options) =>
      call(() => ({
        method: 'POST',
        path: `/test/payments/${pathId('testHelpers.dispute', 'paymentId', paymentId, 'pa_…')}/dispute`,
        query: '',
        body: paramsObject('testHelpers.dispute', params, false),
        validator: disputeValidator,
        options,
      })),
    settleDispute: (disputeId, params, options) =>
      call(() => ({
        method: 'POST',
        path: `/test/disputes/${pathId('testHelpers.settleDispute', 'disputeId', disputeId, 'dp_…')}/settle`,
        query: '',
        body: paramsObject('testHelpers.settleDispute', params, true),
        validator: disputeValidator,
        options,
      })),
  }
}
