import { ChargekitError } from './chargekit-error'

/**
 * Bad input to the test-amount encoder (`encodeTestAmount` / `formatTestAmount`), the one error
 * this package throws; lookups and the decoder answer `undefined` instead, because "this is not
 * a code" is an expected outcome there, not a programming mistake.
 */
export class TestAmountError extends ChargekitError {
  /** The argument that was rejected, e.g. `'code'` or `'element'`. */
  readonly argument: string
  /** The value that was passed for it. */
  readonly value: unknown

  constructor(message: string, details: { argument: string; value: unknown }) {
    super(message)
    this.name = 'TestAmountError'
    this.argument = details.argument
    this.value = details.value
  }
}

/** Quotes strings and prints anything else as-is, so messages show exactly what was received. */
export function describeValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value)
}
