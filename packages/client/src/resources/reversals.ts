import type { Reversal } from '@chargekit/schemas'
import { reversalShape } from '@chargekit/schemas/response-checks'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { listValidator, shapeValidator } from '../schema-validators'
import { pathId } from './arguments'
import { listPages } from './list-pages'
import type { ReversalListParams } from './list-params'

/** Shared with `instruments.reverse`, which answers with the reversal it created. */
export const reversalValidator = /* @__PURE__ */ shapeValidator('reversal', reversalShape)
const reversalListValidator = /* @__PURE__ */ listValidator(reversalValidator)

export interface ReversalsResource {
  /** GET /v2/reversals/{id}: a reversal, created by `instruments.reverse` or `instruments.invalidate`. */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Reversal>
  /** GET /v2/reversals, newest first, optionally only those of one instrument or charge. */
  list(params?: ReversalListParams, options?: RequestOptions): PagePromise<Reversal>
}

export function reversalsResource(call: SendCall): ReversalsResource {
  return {
    retrieve: (id, options) =>
      call(() => ({
        method: 'GET',
        path: `/reversals/${pathId('reversals.retrieve', 'id', id, 'rv_…')}`,
        query: '',
        body: undefined,
        validator: reversalValidator,
        options,
      })),
    list: (params, options) =>
      listPages(call, 'reversals.list', '/reversals', reversalListValidator, params, options),
  }
}
