import type { Settlement } from '@chargekit/schemas'
import { settlementsList, settlementsRetrieve } from '@chargekit/schemas/operations'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { PagePromise } from '../pagination'
import type { SendCall } from '../request-loop'
import { answerValidator } from './answer-validators'
import { listPages } from './list-pages'
import type { ListParams } from './list-params'
import { operationSender } from './operation-call'

export interface SettlementsResource {
  /** One settlement run and the payments and refunds it settled. */
  retrieve(id: string, options?: RequestOptions): ApiPromise<Settlement>
  /** The batches that settled payments and refunds, newest first. */
  list(params?: ListParams, options?: RequestOptions): PagePromise<Settlement>
}

export function settlementsResource(call: SendCall): SettlementsResource {
  const send = operationSender(call, answerValidator)
  return {
    retrieve: (id, options) => send(settlementsRetrieve, [id], undefined, options),
    list: (params, options) => listPages(call, settlementsList, params, options),
  }
}
