import type { ListEnvelope } from '@chargekit/schemas'
import { apiRoot, type OperationRoute } from '@chargekit/schemas/operations'
import type { RequestOptions } from '../client-options'
import { PagePromise } from '../pagination'
import { toQueryString } from '../query-string'
import type { SendCall } from '../request-loop'
import type { ResponseValidator } from '../response-validator'
import { answerValidator } from './answer-validators'
import { paramsObject } from './arguments'
import type { ListParams } from './list-params'

/**
 * A `list()` method's answer, for a list operation of the table: the first page on `await`,
 * every item on `for await`.
 */
export function listPages<T, Params extends ListParams>(
  call: SendCall,
  operation: OperationRoute,
  params: Params | undefined,
  options: RequestOptions | undefined,
): PagePromise<T> {
  const validator = answerValidator(operation) as ResponseValidator<ListEnvelope<T>>
  return new PagePromise(
    // Checked inside the fetch so a bad argument rejects like every other failure of a call.
    (page) =>
      call(() => ({
        method: 'GET',
        path: operation.path.slice(apiRoot.length),
        query: toQueryString({ ...paramsObject(operation.id, params, false), page }),
        body: undefined,
        validator,
        options,
      })),
    params?.page ?? 1,
  )
}
