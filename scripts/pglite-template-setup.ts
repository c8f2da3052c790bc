import { readFileSync } from 'node:fs'
import { rename, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { TestProject } from 'vitest/node'

// Initializing a PGlite database costs about 3 s of CPU; starting one from the dump of a fresh
// database (`loadDataDir`) about 0.4 s. The dump is made once and kept in the temp folder per
// PGlite version, so every test file (and every later run) starts its databases from it.

/** Vitest globalSetup: makes the dump when missing and tells the test files where it is. */
export default async function setup(project: TestProject) {
  const { version } = JSON.parse(
    // The package exports no package.json; the root depends on it, so it is here.
    readFileSync(
      new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url),
      'utf8',
    ),
  ) as { version: string }
  const file = join(tmpdir(), `chargekit-pglite-template-${version}.tar`)
  if (!(await stat(file).catch(() => undefined))) {
    const db = await PGlite.create()
    const dump = await db.dumpDataDir('none')
    await db.close()
    // Written aside, then renamed: projects setting up at once never read half a file.
    const partial = `${file}.${process.pid}.partial`
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()))
    await rename(partial, file)
  }
  project.provide('pgliteTemplate', file)
}
