import { ChargekitError } from '@chargekit/errors'

/**
 * Bad input to the money helpers (`toMinorUnits`, `fromMinorUnits`, `compareAmounts`,
 * `currencyMinorDigits`…): not a finite decimal, more decimals than the currency allows, an
 * unknown currency. The message says what was expected.
 */
export class AmountError extends ChargekitError {
  override name = 'AmountError'
}
