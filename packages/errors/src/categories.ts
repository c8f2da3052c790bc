export type ErrorCategoryName =
  | 'validation'
  | 'soft_decline'
  | 'hard_decline'
  | 'communication'
  | 'implementation'
  | 'risk'
  | 'unhandled'

/** The first pair of digits of an `XX.YY.ZZZZ` code. */
export type ErrorCategoryPrefix = '01' | '02' | '03' | '04' | '05' | '06' | '99'

/**
 * Whether a later attempt may succeed:
 * - `yes`: the same request may succeed later as it is (soft declines, processor communication);
 * - `after_fix`: only once the data, the integration, the issuer or the customer fixes the cause;
 * - `no`: retrying is not expected to help and the cause needs investigating (risk, unhandled).
 */
export type RetryHint = 'yes' | 'no' | 'after_fix'

export interface ErrorCategory {
  readonly name: ErrorCategoryName
  readonly prefix: ErrorCategoryPrefix
  /** The category's name, e.g. `'Soft declines'`. */
  readonly label: string
  /** What the category means, e.g. `'Declined; later attempts may succeed'`. */
  readonly meaning: string
  readonly retryable: RetryHint
}

/** A code whose first pair of digits is a category prefix, such as every catalogue code. */
export type CategorizedCode = `${ErrorCategoryPrefix}.${string}`

// Keyed by prefix so the compiler insists on exactly one category for every prefix.
const categoryByPrefix: {
  readonly [Prefix in ErrorCategoryPrefix]: ErrorCategory & { readonly prefix: Prefix }
} = {
  '01': {
    name: 'validation',
    prefix: '01',
    label: 'Validation errors',
    meaning: 'Problems with the data sent',
    retryable: 'after_fix',
  },
  '02': {
    name: 'soft_decline',
    prefix: '02',
    label: 'Soft declines',
    meaning: 'Declined; later attempts may succeed',
    retryable: 'yes',
  },
  '03': {
    name: 'hard_decline',
    prefix: '03',
    label: 'Hard declines',
    meaning: 'Declined; most require issuer or customer to fix the cause first',
    retryable: 'after_fix',
  },
  '04': {
    name: 'communication',
    prefix: '04',
    label: 'Communication',
    meaning:
      'Problems between the service and the processor; recurring ones need root-cause checks',
    retryable: 'yes',
  },
  '05': {
    name: 'implementation',
    prefix: '05',
    label: 'Implementation',
    meaning: 'Integration performed incorrectly',
    retryable: 'after_fix',
  },
  '06': { name: 'risk', prefix: '06', label: 'Risk', meaning: 'Possible fraud', retryable: 'no' },
  '99': {
    name: 'unhandled',
    prefix: '99',
    label: 'Unhandled errors',
    meaning: 'Unspecified failure; further analysis may be needed',
    retryable: 'no',
  },
}

// Object.values lists '99' first (it is an array-index key, '01' is not), hence the sort.
// Pure, so a bundle that uses only `categoryOf` (the browser client) leaves the list out.
/** The categories of the code format, in prefix order; `retryable` is our reading of each meaning. */
export const errorCategories: readonly ErrorCategory[] = /* @__PURE__ */ sortedByPrefix()

function sortedByPrefix(): ErrorCategory[] {
  return Object.values(categoryByPrefix).sort((a, b) => a.prefix.localeCompare(b.prefix))
}

const codeFormat = /^(\d{2})\.\d{2}\.\d{4}$/

/**
 * The category of any well-formed `XX.YY.ZZZZ` code, by its prefix — also for codes missing from
 * the catalogue, so a code the service adds later is still classified. `undefined` for anything
 * that is not in that form or has an unknown prefix.
 */
export function categoryOf(code: string): ErrorCategory | undefined {
  if (typeof code !== 'string') return undefined
  const prefix = codeFormat.exec(code)?.[1]
  return errorCategories.find((category) => category.prefix === prefix)
}

/** The category with this name (`'soft_decline'`), or `undefined`. */
export function lookupErrorCategory(name: string): ErrorCategory | undefined {
  return errorCategories.find((category) => category.name === name)
}

/**
 * The category of a code whose prefix is known to have one. Unlike {@link categoryOf} it always
 * answers: the {@link CategorizedCode} type already rules out an unknown prefix.
 */
export function categoryOfCategorizedCode(code: CategorizedCode): ErrorCategory {
  // Every prefix is two characters, so these are exactly the code's `${ErrorCategoryPrefix}`.
  return categoryByPrefix[code.slice(0, 2) as ErrorCategoryPrefix]
}
