/**
 * Exact decimal arithmetic for amounts. A JSON amount is a double; its shortest round-trip
 * text (`String(n)`) is the decimal the sender meant, so all work happens on that text and on
 * bigints, never on float sums or products.
 */
export interface Decimal {
  /** The value times 10^scale, signed. */
  units: bigint
  /** Digits after the decimal point, trailing zeros removed. */
  scale: number
}

/**
 * The largest exponent magnitude a decimal string may have. A double's shortest text never goes
 * beyond it (`5e-324`, `1.7976931348623157e+308`), so every amount a JSON number can carry fits;
 * a larger one would make the exact reading build millions of digits (`'1e5000000'`).
 */
export const maxDecimalExponent = 324

const decimalPattern = /^([+-]?)(\d+)(?:\.(\d*))?(?:e([+-]?\d+))?$/i

/** A decimal as digit text: `digits` read as an integer, divided by 10^scale. */
interface DecimalText {
  negative: boolean
  digits: string
  scale: number
}

/** The digit text of a finite number or a decimal string; the exponent is applied, not kept. */
function readDecimal(value: number | string): DecimalText | undefined {
  if (typeof value === 'number' && !Number.isFinite(value)) return undefined
  const match = decimalPattern.exec(typeof value === 'number' ? String(value) : value.trim())
  if (!match) return undefined
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match
  const exponent = Number(exponentText)
  if (Math.abs(exponent) > maxDecimalExponent) return undefined
  let digits = `${whole}${fraction}`
  let scale = fraction.length - exponent
  if (scale < 0) {
    digits += '0'.repeat(-scale)
    scale = 0
  }
  let end = digits.length
  while (scale > 0 && digits.charCodeAt(end - 1) === 48 /* '0' */) {
    end--
    scale--
  }
  return { negative: sign === '-', digits: digits.slice(0, end), scale }
}

/**
 * Reads a finite number, or a decimal string such as "12.50" or "1e-7", exactly. `undefined` for
 * anything else, including an exponent beyond ±{@link maxDecimalExponent}.
 */
export function parseDecimal(value: number | string): Decimal | undefined {
  const text = readDecimal(value)
  if (text === undefined) return undefined
  const units = BigInt(text.digits)
  return { units: text.negative ? -units : units, scale: text.scale }
}

/**
 * How many digits {@link parseDecimal} would find after the point, without building the bigint:
 * amounts are checked against their currency on every event, so this is the hot path.
 */
export function decimalScale(value: number | string): number | undefined {
  // An integer-valued double has no fractional digits, whatever its text looks like.
  if (typeof value === 'number' && Number.isInteger(value)) return 0
  return readDecimal(value)?.scale
}

/** The decimal with `scale` digits after the point, as text ("-12.05" for -1205n, 2). */
export function formatUnits(units: bigint, scale: number): string {
  const negative = units < 0n
  const text = (negative ? -units : units).toString().padStart(scale + 1, '0')
  const whole = text.slice(0, text.length - scale)
  const fraction = scale > 0 ? `.${text.slice(text.length - scale)}` : ''
  return `${negative ? '-' : ''}${whole}${fraction}`
}

/** `value` rescaled to `scale` digits; the caller guarantees `scale >= value.scale`. */
export function rescale(value: Decimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale)
}
