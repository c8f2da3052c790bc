import { type Settlement, settlementSchema } from '@chargekit/schemas'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import { schemaValidator } from '../schema-validators'
import type { Transport } from '../transport'
import { pathId } from './arguments'

/** Shared with `testHelpers.settle`, which answers with the settlement it ran. */
export const settlementValidator = /* @__PURE__ */ schemaValidator('settlement', settlementSchema)

export interface SettlementsResource {
  /** GET /v2/settlements/{id}: one settlement run and the payments and refunds it settled. */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Settlement>
}

export function settlementsResource(call: Transport): SettlementsResource {
  return {
    retrieve: (id, options) =>
      call(() => ({
        method: 'GET',
        path: `/settlements/${pathId('settlements.retrieve', 'id', id, 'st_…')}`,
        query: '',
        body: undefined,
        validator: settlementValidator,
        options,
      })),
  }
}
