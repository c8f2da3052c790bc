import { inject } from 'vitest'
import { copyDataFolder } from './database-temp-dir'
import type {} from './provided-context'

/**
 * In a test: a new copy of a fresh PGlite database's data folder, to open with `dataDir` in half
 * the CPU that loading the dump into memory takes; `remove()` deletes it.
 */
export function pgliteFolder(): Promise<{ path: string; remove(): Promise<void> }> {
  return copyDataFolder(inject('pgliteTemplateFolder'), 'pglite')
}
