// The checks of every response body without zod, for code where zod's size matters (the
// client's bundle): shapes generated from this package's zod schemas, which judge a value
// exactly as those schemas do and word their issues as `formatZodIssues` does.
export { formatZodIssues } from './format-zod-issues'
export * from './response-shapes'
export { checkShape, type Shape, type ShapeResult } from './shape-check'
