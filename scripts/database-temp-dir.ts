import { execFile } from 'node:child_process'
import { statfsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { isProcessRunning } from '../packages/sandbox/src/process-running'
import { removeFoldersOfEndedRuns } from './ended-runs'

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

/**
 * A new folder in databaseTempDir() for a test run's throw-away database files, named
 * `chargekit-<this process's id>-<name>-…`. The first call in a process removes what runs that
 * died left there (see removeLeftovers).
 */
export async function databaseTempFolder(name: string): Promise<string> {
  leftoversRemoved ??= removeLeftovers()
  await leftoversRemoved
  return mkdtemp(join(databaseTempDir(), `chargekit-${process.pid}-${name}-`))
}

let leftoversRemoved: Promise<void> | undefined

/** A new copy of a database's data folder in databaseTempDir(); `remove()` deletes it. */
export async function copyDataFolder(
  folder: string,
  name: string,
): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await databaseTempFolder(name)
  // cp(1) copies PGlite's thousand small files several times faster than fs.cp.
  await promisify(execFile)('cp', ['-R', `${folder}/.`, path])
  return { path, remove: () => rm(path, { recursive: true, force: true }) }
}

/**
 * Removes the folders of test runs whose process is gone: a run that crashed or was killed (a V8
 * abort, kill -9) never ran its cleanup, and in /dev/shm its files hold memory until a reboot. A
 * PostgreSQL cluster still running in one is stopped first (SIGQUIT, its immediate shutdown). A
 * folder whose process still runs, whoever's it is, is left alone.
 */
export function removeLeftovers(): Promise<void> {
  return removeFoldersOfEndedRuns(databaseTempDir(), /^chargekit-(\d+)-/, (folder) =>
    stopPostgres(join(folder, 'data')),
  )
}

/**
 * Stops the postmaster running on the cluster in `data`, if one does, and waits up to 5 s for it
 * to go. Its process id comes from `postmaster.pid`, and counts only while /proc shows a postgres
 * process on that folder: an id the system gave another process since is never signalled.
 */
async function stopPostgres(data: string): Promise<void> {
  const [line] = (await readFile(join(data, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')
  const pid = Number(line)
  if (!Number.isInteger(pid) || pid <= 0) return
  const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')
  if (!command.includes('postgres') || !command.includes(data)) return
  process.kill(pid, 'SIGQUIT')
  for (let waited = 0; waited < 5_000 && isProcessRunning(pid); waited += 50) await sleep(50)
}
