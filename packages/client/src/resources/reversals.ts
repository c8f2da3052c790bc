import type { Reversal } from '@chargekit/schemas'
import { reversalsList, reversalsRetrieve } from '@chargekit/schemas/operations'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { answerValidator } from './answer-validators'
import { listPages } from './list-pages'
import type { ReversalListParams } from './list-params'
import { operationSender } from './operation-call'

export interface ReversalsResource {
  /** A reversal, created by `instruments.reverse` or `instruments.invalidate`. */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Reversal>
  /** Reversals, newest first, optionally only those of one instrument or charge. */
  list(params?: ReversalListParams, options?: RequestOptions): PagePromise<Reversal>
}

export function reversalsResource(call: SendCall): ReversalsResource {
  const send = operationSender(call, answerValidator)
  return {
    retrieve: (id, options) => send(reversalsRetrieve, [id], undefined, options),
    list: (params, options) => listPages(call, reversalsList, params, options),
  }
}
