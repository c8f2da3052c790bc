import type { Settlement } from '@chargekit/schemas'
import { settlementShape } from '@chargekit/schemas/response-checks'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { listValidator, shapeValidator } from '../schema-validators'
import { pathId } from './arguments'
import { listPages } from './list-pages'
import type { ListParams } from './list-params'

/** Shared with `testHelpers.settle`, which answers with the settlement it ran. */
export const settlementValidator = /* @__PURE__ */ shapeValidator('settlement', settlementShape)
const settlementListValidator = /* @__PURE__ */ listValidator(settlementValidator)

export interface SettlementsResource {
  /** GET /v2/settlements/{id}: one settlement run and the payments and refunds it settled. */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Settlement>
  /** GET /v2/settlements, newest first, the batches that settled payments and refunds. */
  list(params?: ListParams, options?: RequestOptions): PagePromise<Settlement>
}

export function settlementsResource(call: SendCall): SettlementsResource {
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
    list: (params, options) =>
      listPages(call, 'settlements.list', '/settlements', settlementListValidator, params, options),
  }
}
