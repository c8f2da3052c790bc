import { type Dispute, disputeSchema } from '@chargekit/schemas'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import { schemaValidator } from '../schema-validators'
import type { Transport } from '../transport'
import { pathId } from './arguments'

/** Shared with the test helpers that open and decide a dispute. */
export const disputeValidator = /* @__PURE__ */ schemaValidator('dispute', disputeSchema)

export interface DisputesResource {
  /** GET /v2/disputes/{id}: a customer's dispute of a payment, open or decided. */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Dispute>
}

export function disputesResource(call: Transport): DisputesResource {
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
  }
}
