import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { rename, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { TestProject } from 'vitest/node'
import { readMigrationFiles } from '../src/storage/sql/migration-files'
import { openSqlDatabase } from '../src/storage/sql/open-database'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data folder holding an empty embedded database with the sandbox's tables. */
    sandboxDataFolder: string
  }
}

/**
 * Vitest globalSetup: the data folder every embedded-database test copies for a sandbox of its
 * own. Starting a sandbox on a new folder initializes a database and creates its tables, seconds
 * of CPU; on a copy of this folder it only opens it. The folder is kept in the temp folder per
 * PGlite version and migrations, so later runs find it made.
 */
export default async function setup(project: TestProject) {
  // The dump's file name carries the PGlite version.
  const dump = project.getProvidedContext().pgliteTemplate
  const key = createHash('sha256')
    .update(basename(dump))
    .update(JSON.stringify(readMigrationFiles()))
    .digest('hex')
    .slice(0, 16)
  const folder = join(tmpdir(), `chargekit-sandbox-data-${key}`)
  if (!(await stat(folder).catch(() => undefined))) {
    // Made aside, then renamed: projects setting up at once never copy half a folder.
    const partial = `${folder}.${process.pid}.partial`
    await rm(partial, { recursive: true, force: true })
    const loadDataDir = new Blob([readFileSync(dump)])
    await (await PGlite.create({ dataDir: partial, loadDataDir })).close()
    await (await openSqlDatabase({ data: partial })).close()
    await rename(partial, folder).catch(async (error: NodeJS.ErrnoException) => {
      // Another project made it first.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error
      await rm(partial, { recursive: true, force: true })
    })
  }
  project.provide('sandboxDataFolder', folder)
}
