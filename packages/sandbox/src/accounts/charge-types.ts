const knownLabels: Readonly<Record<string, string>> = {
  card_onetime: 'Card one-time payment',
  card_recurring: 'Card recurring payment',
}

/** The human-readable `charge_type_label`: `card_onetime` → "Card one-time payment". */
export function chargeTypeLabel(chargeType: string): string {
  const known = knownLabels[chargeType]
  if (known !== undefined) return known
  const words = chargeType.split('_').join(' ')
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`
}

/** `*_recurring` charge types allow several payments from one instrument (DESIGN §5). */
export function isRecurringChargeType(chargeType: string): boolean {
  return chargeType.endsWith('_recurring')
}
