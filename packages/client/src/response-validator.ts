export type ValidationResult<T> =
  | { success: true; data: T }
  | { success: false; issues: Record<string, string[]> }

/** Checks a parsed JSON body against what an endpoint promises; `name` goes into messages. */
export interface ResponseValidator<T> {
  readonly name: string
  validate(json: unknown): ValidationResult<T>
}

/** For endpoints that answer 204 with no body: the answer is `undefined`, whatever it carried. */
export const noContentValidator: ResponseValidator<void> = {
  name: 'empty answer',
  validate: () => ({ success: true, data: undefined }),
}

/**
 * Passes the answer through unchecked, as the browser client does: the response checks would
 * add half again to the few kilobytes a checkout page pays for it.
 */
export function uncheckedValidator<T>(name: string): ResponseValidator<T> {
  return { name, validate: (json) => ({ success: true, data: json as T }) }
}
