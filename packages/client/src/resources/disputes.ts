import type { Dispute } from '@chargekit/schemas'
import { disputeShape } from '@chargekit/schemas/response-checks'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { listValidator, shapeValidator } from '../schema-validators'
import { pathId } from './arguments'
import { listPages } from './list-pages'
import type { DisputeListParams } from './list-params'

/** Shared with the test helpers that open and decide a dispute. */
export const disputeValidator = /* @__PURE__ */ shapeValidator('dispute', disputeShape)
const disputeListValidator = /* @__PURE__ */ listValidator(disputeValidator)

export interface DisputesResource {
  /** GET /v2/disputes/{id}: a customer's dispute of a payment, open or decided. */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Dispute>
  /** GET /v2/disputes, newest first, optionally only those of one payment, charge or status. */
  list(params?: DisputeListParams, options?: RequestOptions): PagePromise<Dispute>
}

export function disputesResource(call: SendCall): DisputesResource {
  return {
    retrieve: (id, options) =>
      call(() => ({
        method: 'GET',
        path: `/disputes/${pathId('disputes.retrieve', 'id', id, 'dp_…')}`,
        query: '',
        body: undefined,
        validator: disputeValidator,
        options,
      })),
    list: (params, options) =>
      listPages(call, 'disputes.list', '/disputes', disputeListValidator, params, options),
  }
}
