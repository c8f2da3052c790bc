import type {
  CreateDisputeRequest,
  Dispute,
  Instrument,
  RecordedRequest,
  SettleDisputeRequest,
  Settlement,
} from '@chargekit/schemas'
import { recordedRequestShape } from '@chargekit/schemas/response-checks'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { listValidator, shapeValidator } from '../schema-validators'
import { paramsObject, pathId } from './arguments'
import { disputeValidator } from './disputes'
import { instrumentValidator } from './instruments'
import { listPages } from './list-pages'
import type { ListParams } from './list-params'
import { settlementValidator } from './settlements'

const recordedRequestListValidator = /* @__PURE__ */ listValidator(
  shapeValidator('recorded request', recordedRequestShape),
)

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
  /**
   * POST /v2/test/instruments/{id}/approve: the customer approves a pending instrument on the
   * approval page (PayPal, 3-D Secure) or in the app (MB WAY). Resolves with the instrument as
   * it is now: `authorized`, or `invalid` when the capture on creation failed it. A 409
   * ConflictError when the instrument waits for no approval.
   */
  approveInstrument(instrumentId: string, options?: RequestOptions): ApiPromise<Instrument>
  /**
   * POST /v2/test/instruments/{id}/decline: the customer refuses; the instrument becomes
   * `invalid` with the method's code (03.00.0001 for MB WAY and PayPal).
   */
  declineInstrument(instrumentId: string, options?: RequestOptions): ApiPromise<Instrument>
  /**
   * POST /v2/test/instruments/{id}/pay: the customer pays the instrument's payment reference
   * (Multibanco, Payshop) at an ATM, in home banking or in a shop.
   */
  payReference(instrumentId: string, options?: RequestOptions): ApiPromise<Instrument>
  /**
   * POST /v2/test/instruments/{id}/expire: the customer's deadline passes now; the instrument
   * becomes `invalid` with 03.00.0002 Instrument Expired.
   */
  expireInstrument(instrumentId: string, options?: RequestOptions): ApiPromise<Instrument>
  /**
   * GET /v2/requests: the account's recent API requests, newest first, each with the
   * integration warnings the sandbox found in it (what the production service accepts but a
   * careful client would send otherwise). Never headers or bodies.
   */
  listRequests(params?: ListParams, options?: RequestOptions): PagePromise<RecordedRequest>
}

/** The customer's answers, by the helper that gives each and its path segment. */
const customerAnswers = {
  approveInstrument: 'approve',
  declineInstrument: 'decline',
  payReference: 'pay',
  expireInstrument: 'expire',
} as const

export function testHelpersResource(call: SendCall): TestHelpersResource {
  const answer =
    (helper: keyof typeof customerAnswers) => (instrumentId: string, options?: RequestOptions) =>
      call(() => ({
        method: 'POST',
        path: `/test/instruments/${pathId(`testHelpers.${helper}`, 'instrumentId', instrumentId, 'in_…')}/${customerAnswers[helper]}`,
        query: '',
        body: undefined,
        validator: instrumentValidator,
        options,
      }))
  return {
    approveInstrument: answer('approveInstrument'),
    declineInstrument: answer('declineInstrument'),
    payReference: answer('payReference'),
    expireInstrument: answer('expireInstrument'),
    listRequests: (params, options) =>
      listPages(
        call,
        'testHelpers.listRequests',
        '/requests',
        recordedRequestListValidator,
        params,
        options,
      ),
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
