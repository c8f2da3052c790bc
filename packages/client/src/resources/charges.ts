import type { Charge, ChargeTypeInfo, CreateChargeRequest } from '@chargekit/schemas'
import { chargeShape, chargeTypeListShape } from '@chargekit/schemas/response-checks'
import { type ApiPromise, mapApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { listValidator, shapeValidator } from '../schema-validators'
import { paramsObject, pathId } from './arguments'
import { listPages } from './list-pages'
import type { ChargeListParams } from './list-params'

const chargeValidator = /* @__PURE__ */ shapeValidator('charge', chargeShape)
const chargeListValidator = /* @__PURE__ */ listValidator(chargeValidator)
const chargeTypeListValidator = /* @__PURE__ */ shapeValidator(
  'charge type list',
  chargeTypeListShape,
)

export interface ChargesResource {
  /** POST /v2/charges: starts a transaction. A `.10` test amount fails it with a PaymentError. */
  create(params: CreateChargeRequest, options?: RequestOptions): ApiPromise<Charge>
  /**
   * POST /v2/charges/{id}/confirm: confirms a charge created with `confirmed: false`, so an
   * instrument can be created from it (`charge.confirmed`). Confirming a confirmed charge
   * answers it unchanged.
   */
  confirm(id: string, options?: RequestOptions): ApiPromise<Charge>
  /** GET /v2/charges/{id} */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Charge>
  /** GET /v2/charges, newest first, optionally only those whose metadata has given values. */
  list(params?: ChargeListParams, options?: RequestOptions): PagePromise<Charge>
  /**
   * GET /v2/charges/types: the charge types the account's channels offer, each with its label,
   * whether it is recurring, and the JSON Schema of its instrument request (to draw a form from).
   */
  types(options?: RequestOptions): ApiPromise<ChargeTypeInfo[]>
}

export function chargesResource(call: SendCall): ChargesResource {
  return {
    create: (params, options) =>
      call(() => ({
        method: 'POST',
        path: '/charges',
        query: '',
        body: paramsObject('charges.create', params, true),
        validator: chargeValidator,
        options,
      })),
    confirm: (id, options) =>
      call(() => ({
        method: 'POST',
        path: `/charges/${pathId('charges.confirm', 'id', id, 'ch_…')}/confirm`,
        query: '',
        body: undefined,
        validator: chargeValidator,
        options,
      })),
    retrieve: (id, options) =>
      call(() => ({
        method: 'GET',
        path: `/charges/${pathId('charges.retrieve', 'id', id, 'ch_…')}`,
        query: '',
        body: undefined,
        validator: chargeValidator,
        options,
      })),
    list: (params, options) =>
      listPages(call, 'charges.list', '/charges', chargeListValidator, params, options),
    types: (options) =>
      mapApiPromise(
        call(() => ({
          method: 'GET',
          path: '/charges/types',
          query: '',
          body: undefined,
          validator: chargeTypeListValidator,
          options,
        })),
        (list) => list.collection,
      ),
  }
}
