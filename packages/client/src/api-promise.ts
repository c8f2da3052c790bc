import type { HttpAnswer } from './http-transport'

/** A successful answer with what the service said about it besides the body. */
export interface ApiResponse<T> {
  /** The parsed (and unless `validate: false`, checked) body: what awaiting the call gives. */
  data: T
  status: number
  headers: Headers
  /** The `Request-Id` header: quote it when asking the service's support about this call. */
  requestId: string | undefined
  /**
   * Whether the service answered a repeated Idempotency-Key with the stored answer of the first
   * request (`Idempotent-Replayed: true`) instead of applying the request again.
   */
  idempotentReplayed: boolean
}

/** What every call returns: a promise of the body, and `withResponse()` for the answer around it. */
export type ApiPromise<T> = Promise<T> & {
  /** The same call (not sent again) resolved to its body, status, headers and request id. */
  withResponse(): Promise<ApiResponse<T>>
}

/** A 2xx answer as the request loop hands it over: the decoded body and the raw answer. */
export interface Answered<T> {
  data: T
  answer: HttpAnswer
}

/**
 * The promise every call returns. It resolves to the body alone; the {@link ApiResponse} around
 * it (headers, request id) is built only when `withResponse()` asks, so the common `await` reads
 * no header at all.
 */
export function apiPromise<T>(answered: Promise<Answered<T>>): ApiPromise<T> {
  let response: ApiResponse<T> | undefined
  let answer: Answered<T> | undefined
  const data = answered.then((result) => {
    answer = result
    return result.data
  })
  // Chained on `data`, so a failure reaches whichever of the two the caller awaits, and a
  // caller who never awaits either still sees an unhandled rejection.
  return Object.assign(data, {
    withResponse: () =>
      data.then(() => {
        response ??= toApiResponse(answer as Answered<T>)
        return response
      }),
  })
}

function toApiResponse<T>({ data, answer }: Answered<T>): ApiResponse<T> {
  return {
    data,
    status: answer.status,
    headers: answer.headers(),
    requestId: answer.header('request-id'),
    idempotentReplayed: answer.header('idempotent-replayed') === 'true',
  }
}

/** `promise` with its body turned into `map(body)`, on `await` and on `withResponse()` alike. */
export function mapApiPromise<T, U>(promise: ApiPromise<T>, map: (data: T) => U): ApiPromise<U> {
  // Chained on the mapped body, like apiPromise: one rejection, seen by whichever is awaited.
  const data = promise.then(map)
  return Object.assign(data, {
    withResponse: () =>
      data.then((mapped) => promise.withResponse().then((answer) => ({ ...answer, data: mapped }))),
  })
}
