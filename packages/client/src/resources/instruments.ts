import type {
  CreateReversalRequest,
  Instrument,
  InstrumentCreateParams,
  Reversal,
} from '@chargekit/schemas'
import {
  instrumentsCreate,
  instrumentsInvalidate,
  instrumentsList,
  instrumentsRetrieve,
  instrumentsReverse,
} from '@chargekit/schemas/operations'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { answerValidator } from './answer-validators'
import { paramsObject } from './arguments'
import { listPages } from './list-pages'
import type { InstrumentListParams } from './list-params'
import { operationSender } from './operation-call'

export interface InstrumentsResource {
  /**
   * What the customer gives for a charge, by its charge type: a card, an
   * MB WAY phone number, or only the charge (Multibanco, Payshop, PayPal). A card is usually
   * authorized at once; the other methods answer `pending` with what the customer must do in
   * `redirect`. A decline throws a PaymentError; the instrument then exists with status
   * `invalid`.
   */
  create(params: InstrumentCreateParams, options?: RequestOptions): ApiPromise<Instrument>
  /** The instrument as it is now. */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Instrument>
  /** Instruments, newest first, optionally only those of one charge or status. */
  list(params?: InstrumentListParams, options?: RequestOptions): PagePromise<Instrument>
  /** Voids an authorized, uncaptured instrument. */
  reverse(
    id: string,
    params?: CreateReversalRequest,
    options?: RequestOptions,
  ): ApiPromise<Reversal>
  /**
   * The merchant invalidates the instrument (`instrument.invalid`).
   * An authorized one with nothing captured is reversed first (`reversal.*`), so its funds are
   * released; a recurring token can no longer be charged. Resolves once the service answered 204.
   */
  invalidate(id: string, options?: RequestOptions): ApiPromise<void>
}

export function instrumentsResource(call: SendCall): InstrumentsResource {
  const send = operationSender(call, answerValidator)
  return {
    create: (params, options) =>
      send(instrumentsCreate, [], () => paramsObject(instrumentsCreate.id, params, true), options),
    retrieve: (id, options) => send(instrumentsRetrieve, [id], undefined, options),
    list: (params, options) => listPages(call, instrumentsList, params, options),
    reverse: (id, params, options) =>
      send(
        instrumentsReverse,
        [id],
        () => paramsObject(instrumentsReverse.id, params, false),
        options,
      ),
    invalidate: (id, options) => send(instrumentsInvalidate, [id], undefined, options),
  }
}
