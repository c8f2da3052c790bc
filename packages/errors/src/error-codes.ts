import { catalogue } from './catalogue'
import { categoryOfCategorizedCode, type ErrorCategoryName } from './categories'

/** Every code of the catalogue, as a literal union (`'06.02.0000' | …`). */
export type ErrorCode = (typeof catalogue)[number]['code']

export interface ErrorCodeInfo {
  readonly code: ErrorCode
  readonly category: ErrorCategoryName
  /** The error's name; the service reports it as `failure_description`. */
  readonly designation: string
  readonly description: string
  /** Other designations the same code is documented with (only 05.02.0000 has one). */
  readonly aliases: readonly string[]
  /** Whether a later identical attempt may succeed: true only in categories whose hint is `yes`. */
  readonly retryable: boolean
}

function toInfo(row: (typeof catalogue)[number]): ErrorCodeInfo {
  const category = categoryOfCategorizedCode(row.code)
  return {
    code: row.code,
    category: category.name,
    designation: row.designation,
    description: row.description,
    aliases: 'aliases' in row ? row.aliases : [],
    retryable: category.retryable === 'yes',
  }
}

/** The whole catalogue, in the service's documented order. */
// Pure, so a bundle that never looks codes up (the browser client) leaves the catalogue out.
export const errorCodes: readonly ErrorCodeInfo[] = /* @__PURE__ */ catalogue.map(toInfo)

const byCode: ReadonlyMap<string, ErrorCodeInfo> = /* @__PURE__ */ new Map(
  /* @__PURE__ */ errorCodes.map((info) => [info.code, info]),
)

/** The catalogue entry of an exact `XX.YY.ZZZZ` code, or `undefined`. */
export function lookupErrorCode(code: string): ErrorCodeInfo | undefined {
  return byCode.get(code)
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && byCode.has(value)
}

/** The catalogue entries of one category, in catalogue order. */
export function errorCodesInCategory(category: ErrorCategoryName): readonly ErrorCodeInfo[] {
  return errorCodes.filter((info) => info.category === category)
}
