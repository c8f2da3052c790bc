import { execFile } from 'node:child_process'
import { statfsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

/** Room a test run's databases may take at once: a cluster, its databases, data folder copies. */
const roomNeeded = 1024 ** 3

/**
 * Where tests keep the files of the databases they throw away (a PostgreSQL cluster, embedded
 * databases' folders): /dev/shm, in memory, when it has room, otherwise the system's temp folder.
 * Copying a database's thousand files or creating one from a template is I/O on a disk that
 * other processes keep busy, and takes ten times as long there; nothing needs to outlive the run.
 */
export function databaseTempDir(): string {
  try {
    const { bavail, bsize } = statfsSync('/dev/shm')
    if (bavail * bsize >= roomNeeded) return '/dev/shm'
  } catch {
    // No /dev/shm (not Linux): the temp folder it is.
  }
  return tmpdir()
}

/** A new copy of a database's data folder in databaseTempDir(); `remove()` deletes it. */
export async function copyDataFolder(
  folder: string,
  prefix: string,
): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(databaseTempDir(), prefix))
  // cp(1) copies PGlite's thousand small files several times faster than fs.cp.
  await promisify(execFile)('cp', ['-R', `${folder}/.`, path])
  return { path, remove: () => rm(path, { recursive: true, force: true }) }
}
