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

export function apiPromise<T>(response: Promise<ApiResponse<T>>): ApiPromise<T> {
  let answered: ApiResponse<T> | undefined
  const data = response.then((answer) => {
    answered = answer
    return answer.data
  })
  // Chained on `data`, so a failure reaches whichever of the two the caller awaits, and a
  // caller who never awaits either still sees an unhandled rejection.
  return Object.assign(data, {
    withResponse: () => data.then(() => answered as ApiResponse<T>),
  })
}

/** `promise` with its body turned into `map(body)`, on `await` and on `withResponse()` alike. */
export function mapApiPromise<T, U>(promise: ApiPromise<T>, map: (data: T) => U): ApiPromise<U> {
  return apiPromise(
    promise.withResponse().then((answer) => ({ ...answer, data: map(answer.data) })),
  )
}
