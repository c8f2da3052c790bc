/** The card network from the number's leading digits (IIN ranges published by the networks). */
export function cardBrand(number: string): string {
  const two = Number(number.slice(0, 2))
  const four = Number(number.slice(0, 4))
  if (number.startsWith('4')) return 'VISA'
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'MASTERCARD'
  if (two === 34 || two === 37) return 'AMEX'
  if (number.startsWith('6011') || two === 65 || (four >= 6440 && four <= 6499)) return 'DISCOVER'
  if (four >= 3528 && four <= 3589) return 'JCB'
  if (two === 36 || two === 38 || (four >= 3000 && four <= 3059)) return 'DINERS'
  if (two === 62) return 'UNIONPAY'
  return 'UNKNOWN'
}
