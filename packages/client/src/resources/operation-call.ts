import { apiRoot, type OperationRoute } from '@chargekit/schemas/operations'
import type { ApiPromise } from '../api-promise'
import type { RequestOptions } from '../client-options'
import type { SendCall } from '../request-loop'
import type { ResponseValidator } from '../response-validator'
import { pathId } from './arguments'

/**
 * Sends one operation of the table: `ids` fill its path parameters in order; `body` builds the
 * body, inside the call, so a bad argument rejects like every other failure of a call.
 */
export type SendOperation = <T>(
  operation: OperationRoute,
  ids: readonly unknown[],
  body: (() => unknown) | undefined,
  options: RequestOptions | undefined,
) => ApiPromise<T>

/**
 * The resource methods' way to call the service: everything about an operation (method, path,
 * the step a 402 declines) comes from the operation table, each id checked and percent-encoded
 * into its path segment, and its answer checked by the validator `validatorOf` picks for it.
 */
export function operationSender(
  call: SendCall,
  validatorOf: (operation: OperationRoute) => ResponseValidator<unknown>,
): SendOperation {
  return <T>(
    operation: OperationRoute,
    ids: readonly unknown[],
    body: (() => unknown) | undefined,
    options: RequestOptions | undefined,
  ) =>
    call(() => {
      let index = 0
      const path = operation.path
        .slice(apiRoot.length)
        .replace(/\{(\w+)\}/g, (_, name: string) =>
          pathId(operation.id, name, ids[index++], `${operation.params?.[name]}…`),
        )
      return {
        method: operation.method,
        path,
        query: '',
        body: body?.(),
        validator: validatorOf(operation) as ResponseValidator<T>,
        options,
        declines: operation.declines,
      }
    })
}
