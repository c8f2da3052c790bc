import { statfsSync } from 'node:fs'
import { tmpdir } from 'node:os'

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
