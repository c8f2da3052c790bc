import type {
  CreateDisputeRequest,
  Dispute,
  Instrument,
  RecordedRequest,
  SettleDisputeRequest,
  Settlement,
  SigningSecret,
} from '@chargekit/schemas'
import {
  testHelpersApproveInstrument,
  testHelpersDeclineInstrument,
  testHelpersDispute,
  testHelpersExpireInstrument,
  testHelpersListRequests,
  testHelpersPayReference,
  testHelpersSettle,
  testHelpersSettleDispute,
  testHelpersSigningSecret,
} from '@chargekit/schemas/operations'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { answerValidator } from './answer-validators'
import { paramsObject } from './arguments'
import { listPages } from './list-pages'
import type { ListParams } from './list-params'
import { operationSender } from './operation-call'

/** Test-only endpoints of the sandbox: drive what the processor would do on its own. */
export interface TestHelpersResource {
  /** Settles every settleable payment and refund. */
  settle(options?: RequestOptions): ApiPromise<Settlement>
  /** The customer disputes a successful payment. */
  dispute(
    paymentId: string,
    params?: CreateDisputeRequest,
    options?: RequestOptions,
  ): ApiPromise<Dispute>
  /** The processor decides the dispute. */
  settleDispute(
    disputeId: string,
    params: SettleDisputeRequest,
    options?: RequestOptions,
  ): ApiPromise<Dispute>
  /**
   * The customer approves a pending instrument on the approval page (PayPal, 3-D Secure) or in
   * the app (MB WAY). Resolves with the instrument as it is now: `authorized`, or `invalid` when the capture on creation failed it. A 409
   * ConflictError when the instrument waits for no approval.
   */
  approveInstrument(instrumentId: string, options?: RequestOptions): ApiPromise<Instrument>
  /**
   * The customer refuses; the instrument becomes `invalid` with the method's code (03.00.0001
   * for MB WAY and PayPal).
   */
  declineInstrument(instrumentId: string, options?: RequestOptions): ApiPromise<Instrument>
  /**
   * The customer pays the instrument's payment reference (Multibanco, Payshop) at an ATM, in
   * home banking or in a shop.
   */
  payReference(instrumentId: string, options?: RequestOptions): ApiPromise<Instrument>
  /**
   * The customer's deadline passes now; the instrument becomes `invalid` with 03.00.0002
   * Instrument Expired.
   */
  expireInstrument(instrumentId: string, options?: RequestOptions): ApiPromise<Instrument>
  /**
   * The account's recent API requests, newest first, each with the integration warnings the
   * sandbox found in it (what the production service accepts but a careful client would send
   * otherwise). Never headers or bodies.
   */
  listRequests(params?: ListParams, options?: RequestOptions): PagePromise<RecordedRequest>
  /**
   * The Standard Webhooks secret the sandbox signs this account's deliveries with, for the
   * receiver at its `events_url` (`createWebhooks({ client, secret })`); `signing_secret` is null
   * when it delivers unsigned, as the production service does.
   */
  signingSecret(options?: RequestOptions): ApiPromise<SigningSecret>
}

export function testHelpersResource(call: SendCall): TestHelpersResource {
  const send = operationSender(call, answerValidator)
  return {
    approveInstrument: (instrumentId, options) =>
      send(testHelpersApproveInstrument, [instrumentId], undefined, options),
    declineInstrument: (instrumentId, options) =>
      send(testHelpersDeclineInstrument, [instrumentId], undefined, options),
    payReference: (instrumentId, options) =>
      send(testHelpersPayReference, [instrumentId], undefined, options),
    expireInstrument: (instrumentId, options) =>
      send(testHelpersExpireInstrument, [instrumentId], undefined, options),
    listRequests: (params, options) => listPages(call, testHelpersListRequests, params, options),
    signingSecret: (options) => send(testHelpersSigningSecret, [], undefined, options),
    settle: (options) => send(testHelpersSettle, [], undefined, options),
    dispute: (paymentId, params, options) =>
      send(
        testHelpersDispute,
        [paymentId],
        () => paramsObject(testHelpersDispute.id, params, false),
        options,
      ),
    settleDispute: (disputeId, params, options) =>
      send(
        testHelpersSettleDispute,
        [disputeId],
        () => paramsObject(testHelpersSettleDispute.id, params, true),
        options,
      ),
  }
}
