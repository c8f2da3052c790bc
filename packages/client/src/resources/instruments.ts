import type {
  CreateReversalRequest,
  Instrument,
  InstrumentCreateParams,
  Reversal,
} from '@chargekit/schemas'
import { instrumentShape } from '@chargekit/schemas/response-checks'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { noContentValidator } from '../response-validator'
import { listValidator, shapeValidator } from '../schema-validators'
import { paramsObject, pathId } from './arguments'
import { listPages } from './list-pages'
import type { InstrumentListParams } from './list-params'
import { reversalValidator } from './reversals'

export const instrumentValidator = /* @__PURE__ */ shapeValidator('instrument', instrumentShape)
const instrumentListValidator = /* @__PURE__ */ listValidator(instrumentValidator)

export interface InstrumentsResource {
  /**
   * POST /v2/instruments: what the customer gives for a charge, by its charge type: a card, an
   * MB WAY phone number, or only the charge (Multibanco, Payshop, PayPal). A card is usually
   * authorized at once; the other methods answer `pending` with what the customer must do in
   * `redirect`. A decline throws a PaymentError; the instrument then exists with status
   * `invalid`.
   */
  create(params: InstrumentCreateParams, options?: RequestOptions): ApiPromise<Instrument>
  /** GET /v2/instruments/{id} */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Instrument>
  /** GET /v2/instruments, newest first, optionally only those of one charge or status. */
  list(params?: InstrumentListParams, options?: RequestOptions): PagePromise<Instrument>
  /** POST /v2/instruments/{id}/reversal: voids an authorized, uncaptured instrument. */
  reverse(
    id: string,
    params?: CreateReversalRequest,
    options?: RequestOptions,
  ): ApiPromise<Reversal>
  /**
   * DELETE /v2/instruments/{id}: the merchant invalidates the instrument (`instrument.invalid`).
   * An authorized one with nothing captured is reversed first (`reversal.*`), so its funds are
   * released; a recurring token can no longer be charged. Resolves once the service answered 204.
   */
  invalidate(id: string, options?: RequestOptions): ApiPromise<void>
}

export function instrumentsResource(call: SendCall): InstrumentsResource {
  return {
    create: (params, options) =>
      call(() => ({
        method: 'POST',
        path: '/instruments',
        query: '',
        body: paramsObject('instruments.create', params, true),
        validator: instrumentValidator,
        options,
      })),
    retrieve: (id, options) =>
      call(() => ({
        method: 'GET',
        path: `/instruments/${pathId('instruments.retrieve', 'id', id, 'in_…')}`,
        query: '',
        body: undefined,
        validator: instrumentValidator,
        options,
      })),
    list: (params, options) =>
      listPages(call, 'instruments.list', '/instruments', instrumentListValidator, params, options),
    reverse: (id, params, options) =>
      call(() => ({
        method: 'POST',
        path: `/instruments/${pathId('instruments.reverse', 'id', id, 'in_…')}/reversal`,
        query: '',
        body: paramsObject('instruments.reverse', params, false),
        validator: reversalValidator,
        options,
      })),
    invalidate: (id, options) =>
      call(() => ({
        method: 'DELETE',
        path: `/instruments/${pathId('instruments.invalidate', 'id', id, 'in_…')}`,
        query: '',
        body: undefined,
        validator: noContentValidator,
        options,
      })),
  }
}
