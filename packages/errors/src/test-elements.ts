/**
 * The steps of a transaction that can fail, in lifecycle order: what a test amount makes fail
 * (index 0 is the decimal part `.10`, index 4 is `.50`) and what a 402 names as declined.
 */
export const testElements = ['charge', 'instrument', 'payment', 'refund', 'reversal'] as const

/** A step of a transaction that can fail: the element a test amount makes fail, or a 402 names. */
export type TestElement = (typeof testElements)[number]

export function isTestElement(value: unknown): value is TestElement {
  return testElements.some((element) => element === value)
}
