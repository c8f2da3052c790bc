import type { Dispute } from '@chargekit/schemas'
import { disputesList, disputesRetrieve } from '@chargekit/schemas/operations'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { answerValidator } from './answer-validators'
import { listPages } from './list-pages'
import type { DisputeListParams } from './list-params'
import { operationSender } from './operation-call'

export interface DisputesResource {
  /** A customer's dispute of a payment, open or decided. */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Dispute>
  /** Disputes, newest first, optionally only those of one payment, charge or status. */
  list(params?: DisputeListParams, options?: RequestOptions): PagePromise<Dispute>
}

export function disputesResource(call: SendCall): DisputesResource {
  const send = operationSender(call, answerValidator)
  return {
    retrieve: (id, options) => send(disputesRetrieve, [id], undefined, options),
    list: (params, options) => listPages(call, disputesList, params, options),
  }
}
