import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { rename, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { TestProject } from 'vitest/node'

// Initializing a PGlite database costs about 3 s of CPU; starting one from the dump of a fresh
// database (`loadDataDir`) about 0.4 s, and opening a copy of a fresh database's data folder
// (`dataDir`) half that. The dump and the folder are made once and kept in the temp folder per
// PGlite version and settings, so every test file (and every later run) starts its databases
// from them.

/**
 * A test's database holds a few megabytes: PostgreSQL's default 128 MB of shared buffers, and
 * room for 100 connections to a database that has one, only make every start set up memory
 * nobody uses (a third of its CPU).
 */
const settings = ["shared_buffers = '16MB'", 'max_connections = 10']

/**
 * Vitest globalSetup: makes the dump and the folder when missing and tells the test files where
 * they are.
 */
export default async function setup(project: TestProject) {
  const { version } = JSON.parse(
    // The package exports no package.json; the root depends on it, so it is here.
    readFileSync(
      new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url),
      'utf8',
    ),
  ) as { version: string }
  const key = createHash('sha256').update(settings.join('\n')).digest('hex').slice(0, 8)
  const file = join(tmpdir(), `chargekit-pglite-template-${version}-${key}.tar`)
  if (!(await stat(file).catch(() => undefined))) {
    const db = await PGlite.create()
    for (const setting of settings) await db.exec(`ALTER SYSTEM SET ${setting}`)
    const dump = await db.dumpDataDir('none')
    await db.close()
    // Written aside, then renamed: projects setting up at once never read half a file.
    const partial = `${file}.${process.pid}.partial`
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()))
    await rename(partial, file)
  }
  const folder = `${file}.folder`
  if (!(await stat(folder).catch(() => undefined))) {
    const partial = `${folder}.${process.pid}.partial`
    await rm(partial, { recursive: true, force: true })
    const loadDataDir = new Blob([readFileSync(file)])
    await (await PGlite.create({ dataDir: partial, loadDataDir })).close()
    await rename(partial, folder).catch(async (error: NodeJS.ErrnoException) => {
      // Another project made it first.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error
      await rm(partial, { recursive: true, force: true })
    })
  }
  project.provide('pgliteTemplate', file)
  project.provide('pgliteTemplateFolder', folder)
}
