import type { ListEnvelope } from '@chargekit/schemas'
import type { RequestOptions } from '../client-options'
import { PagePromise } from '../pagination'
import { toQueryString } from '../query-string'
import type { SendCall } from '../request-loop'
import type { ResponseValidator } from '../response-validator'
import { paramsObject } from './arguments'
import type { ListParams } from './list-params'

/** A `list()` method's answer: the first page on `await`, every item on `for await`. */
export function listPages<T, Params extends ListParams>(
  call: SendCall,
  where: string,
  path: string,
  validator: ResponseValidator<ListEnvelope<T>>,
  params: Params | undefined,
  options: RequestOptions | undefined,
): PagePromise<T> {
  return new PagePromise(
    // Checked inside the fetch so a bad argument rejects like every other failure of a call.
    (page) =>
      call(() => ({
        method: 'GET',
        path,
        query: toQueryString({ ...paramsObject(where, params, false), page }),
        body: undefined,
        validator,
        options,
      })),
    params?.page ?? 1,
  )
}
