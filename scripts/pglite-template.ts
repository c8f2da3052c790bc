import { readFileSync } from 'node:fs'
import { inject } from 'vitest'
import type {} from './provided-context'

/**
 * In a test: the dump of a fresh PGlite database, to start one from (PGlite's `loadDataDir`) in
 * a tenth of the time a new one takes to initialize.
 */
export function pgliteTemplate(): Blob {
  return new Blob([readFileSync(inject('pgliteTemplate'))])
}
