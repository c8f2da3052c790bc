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

const decimalPattern = /^([+-]?)(\d+)(?:\.(\d*))?(?:e([+-]?\d+))?$/i

/** Reads a finite number, or a decimal string such as "12.50" or "1e-7", exactly. */
export function parseDecimal(value: number | string): Decimal | undefined {
  if (typeof value === 'number' && !Number.isFinite(value)) return undefined
  const match = decimalPattern.exec(typeof value === 'number' ? String(value) : value.trim())
  if (!match) return undefined
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match
  let digits = `${whole}${fraction}`
  let scale = fraction.length - Number(exponent)
  if (scale < 0) {
    digits += '0'.repeat(-scale)
    scale = 0
  }
  let units = BigInt(digits)
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n
    scale--
  }
  return { units: sign === '-' ? -units : units, scale }
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
