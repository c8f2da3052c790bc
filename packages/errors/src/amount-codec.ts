import { type ErrorCode, isErrorCode } from './error-codes'
import { describeValue, TestAmountError } from './errors'
import { isTestElement, type TestElement, testElements } from './test-elements'

// Error testing by amount: the charge amount `XZZZZ.YY` carries an error code (integer
// part = the code without dots, leading zeros dropped) and the failing element (decimal part .10
// charge … .50 reversal). All work is on digit strings: the number form is produced by parsing
// the exact string once, and decoding reads a number through its shortest round-trip string, so
// no arithmetic on floats ever happens and no code × element drifts.

/** What {@link decodeTestAmount} reads from an amount: the error code and the failing element. */
export interface DecodedTestAmount {
  readonly code: ErrorCode
  readonly element: TestElement
}

/**
 * A code argument: any string is accepted so a code read at runtime can be passed as is, while
 * editors still suggest the catalogue codes (`string & {}` keeps the literals from collapsing
 * into `string`).
 */
export type TestAmountCode = ErrorCode | (string & {})

/**
 * The amount as a two-decimal string: `('06.02.0000', 'instrument')` → `'6020000.20'`.
 * Throws a `TestAmountError` naming the argument when `code` is not a catalogue code or
 * `element` is not a test element.
 */
export function formatTestAmount(code: TestAmountCode, element: TestElement): string {
  if (!isErrorCode(code)) {
    throw new TestAmountError(
      `Unknown error code ${describeValue(code)}: expected a catalogue code in the form XX.YY.ZZZZ, such as "06.02.0000" (see errorCodes)`,
      { argument: 'code', value: code },
    )
  }
  if (!isTestElement(element)) {
    throw new TestAmountError(
      `Unknown test element ${describeValue(element)}: expected one of ${testElements.join(', ')}`,
      { argument: 'element', value: element },
    )
  }
  const integerPart = withoutLeadingZeros(code.replaceAll('.', ''))
  return `${integerPart}.${testElements.indexOf(element) + 1}0`
}

/**
 * The amount as a JSON number: `('06.02.0000', 'instrument')` → `6020000.2`.
 * Throws a `TestAmountError` naming the argument when `code` is not a catalogue code or
 * `element` is not a test element.
 */
export function encodeTestAmount(code: TestAmountCode, element: TestElement): number {
  return Number(formatTestAmount(code, element))
}

const decimalAmount = /^(\d+)(?:\.(\d+))?$/

/**
 * The code and element an amount encodes, or `undefined` when it encodes none: no decimal part or
 * one other than .10–.50 (`42`, `42.25`, `6020000.60`), an integer part that is no catalogue code,
 * or anything that is not a plain non-negative decimal. Never throws.
 */
export function decodeTestAmount(amount: number | string): DecodedTestAmount | undefined {
  const text = toDecimalText(amount)
  const match = text === undefined ? null : decimalAmount.exec(text)
  if (match === null) return undefined
  const [, integerPart = '', fractionPart = ''] = match
  // '6020000.2', '6020000.20' and '6020000.200' are the same amount.
  const element = elementOfFraction(fractionPart.replace(/0+$/, ''))
  if (element === undefined) return undefined
  const digits = withoutLeadingZeros(integerPart).padStart(8, '0')
  const code = `${digits.slice(0, 2)}.${digits.slice(2, 4)}.${digits.slice(4)}`
  return isErrorCode(code) ? { code, element } : undefined
}

function withoutLeadingZeros(digits: string): string {
  return digits.replace(/^0+/, '')
}

/** A number's shortest round-trip decimal (`6020000.2`), or the string itself. */
function toDecimalText(amount: unknown): string | undefined {
  if (typeof amount === 'string') return amount
  if (typeof amount === 'number' && Number.isFinite(amount)) return String(amount)
  return undefined
}

/** `'1'` … `'5'` (a trimmed `.10` … `.50`) to its element. */
function elementOfFraction(fraction: string): TestElement | undefined {
  return /^[1-5]$/.test(fraction) ? testElements[Number(fraction) - 1] : undefined
}
