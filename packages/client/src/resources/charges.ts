import type {
  Charge,
  ChargeTypeInfo,
  ChargeTypeList,
  CreateChargeRequest,
} from '@chargekit/schemas'
import {
  chargesConfirm,
  chargesCreate,
  chargesList,
  chargesRetrieve,
  chargesTypes,
} from '@chargekit/schemas/operations'
import { type ApiPromise, mapApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { answerValidator } from './answer-validators'
import { paramsObject } from './arguments'
import { listPages } from './list-pages'
import type { ChargeListParams } from './list-params'
import { operationSender } from './operation-call'

export interface ChargesResource {
  /** Starts a transaction. A `.10` test amount fails it with a PaymentError. */
  create(params: CreateChargeRequest, options?: RequestOptions): ApiPromise<Charge>
  /**
   * Confirms a charge created with `confirmed: false`, so an instrument can be created from it
   * (`charge.confirmed`). Confirming a confirmed charge answers it unchanged.
   */
  confirm(id: string, options?: RequestOptions): ApiPromise<Charge>
  /** The charge as it is now. */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Charge>
  /** Charges, newest first, optionally only those whose metadata has given values. */
  list(params?: ChargeListParams, options?: RequestOptions): PagePromise<Charge>
  /**
   * The charge types the account's channels offer, each with its label, whether it is
   * recurring, and the JSON Schema of its instrument request (to draw a form from).
   */
  types(options?: RequestOptions): ApiPromise<ChargeTypeInfo[]>
}

export function chargesResource(call: SendCall): ChargesResource {
  const send = operationSender(call, answerValidator)
  return {
    create: (params, options) =>
      send(chargesCreate, [], () => paramsObject(chargesCreate.id, params, true), options),
    confirm: (id, options) => send(chargesConfirm, [id], undefined, options),
    retrieve: (id, options) => send(chargesRetrieve, [id], undefined, options),
    list: (params, options) => listPages(call, chargesList, params, options),
    types: (options) =>
      mapApiPromise(
        send<ChargeTypeList>(chargesTypes, [], undefined, options),
        (list) => list.collection,
      ),
  }
}
