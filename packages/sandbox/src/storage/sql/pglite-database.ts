import { mkdirSync } from 'node:fs'
import { SandboxError } from '../../errors'
import { lockDataFolder } from './data-folder-lock'
import type { SqlDatabase } from './database'
import { connectPglite, type SqlConnection } from './sql-connection'

/**
 * Embedded PostgreSQL (WASM) persisted in `dataDir`, created when missing. One process at a time:
 * a second one on the same folder is refused (PGlite would corrupt it).
 */
export async function openPgliteDatabase(dataDir: string): Promise<SqlDatabase> {
  try {
    mkdirSync(dataDir, { recursive: true })
  } catch (error) {
    throw new SandboxError(`Cannot create the data folder ${dataDir}: ${(error as Error).message}`)
  }
  const unlock = lockDataFolder(dataDir)
  let db: SqlConnection
  try {
    db = await connectPglite(dataDir)
  } catch (error) {
    unlock()
    throw error
  }
  return {
    ...db,
    acrossProcesses: (_key, task) => task(),
    // The only process: claims left by an earlier one are released when the store opens.
    claims: { by: 0, gone: () => 'false' },
    async close() {
      await db.close()
      unlock()
    },
  }
}
