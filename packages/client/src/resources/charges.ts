import { type Charge, type CreateChargeRequest, chargeSchema } from '@chargekit/schemas'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import { listValidator, schemaValidator } from '../response-validator'
import type { Transport } from '../transport'
import { paramsObject, pathId } from './arguments'
import { listPages } from './list-pages'
import type { ListParams } from './list-params'

const chargeValidator = /* @__PURE__ */ schemaValidator('charge', chargeSchema)
const chargeListValidator = /* @__PURE__ */ listValidator(chargeValidator)

export interface ChargesResource {
  /** POST /v2/charges: starts a transaction. A `.10` test amount fails it with a PaymentError. */
  create(params: CreateChargeRequest, options?: RequestOptions): Promise<Charge>
  /** GET /v2/charges/{id} */
  retrieve(id: string, options?: RequestOptions): Promise<Charge>
  /** GET /v2/charges, newest first. */
  list(params?: ListParams, options?: RequestOptions): PagePromise<Charge>
}

export function chargesResource(call: Transport): ChargesResource {
  return {
    create: async (params, options) =>
      call({
        method: 'POST',
        path: '/charges',
        query: '',
        body: paramsObject('charges.create', params, true),
        validator: chargeValidator,
        options,
      }),
    retrieve: async (id, options) =>
      call({
        method: 'GET',
        path: `/charges/${pathId('charges.retrieve', 'id', id, 'ch_…')}`,
        query: '',
        body: undefined,
        validator: chargeValidator,
        options,
      }),
    list: (params, options) =>
      listPages(call, 'charges.list', '/charges', chargeListValidator, params, options),
  }
}
