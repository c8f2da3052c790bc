/** The element of a transaction a test amount makes fail (the decimals .10 to .50). */
export type TestElement = 'charge' | 'instrument' | 'payment' | 'refund' | 'reversal'

/** In decimal-part order: index 0 is `.10`, index 4 is `.50`. */
export const testElements: readonly TestElement[] = [
  'charge',
  'instrument',
  'payment',
  'refund',
  'reversal',
]

export function isTestElement(value: unknown): value is TestElement {
  return testElements.some((element) => element === value)
}
