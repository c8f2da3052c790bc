import { type Refund, refundSchema } from '@chargekit/schemas'
import type { RequestOptions } from '../client-options'
import { schemaValidator } from '../response-validator'
import type { Transport } from '../transport'
import { pathId } from './arguments'

/** Shared with `payments.refund`, which answers with the refund it created. */
export const refundValidator = /* @__PURE__ */ schemaValidator('refund', refundSchema)

export interface RefundsResource {
  /** GET /v2/refunds/{id} */
  retrieve(id: string, options?: RequestOptions): Promise<Refund>
}

export function refundsResource(call: Transport): RefundsResource {
  return {
    retrieve: async (id, options) =>
      call({
        method: 'GET',
        path: `/refunds/${pathId('refunds.retrieve', 'id', id, 're_…')}`,
        query: '',
        body: undefined,
        validator: refundValidator,
        options,
      }),
  }
}
