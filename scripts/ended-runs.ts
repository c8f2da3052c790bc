import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { isProcessRunning } from '../packages/sandbox/src/process-running'

/**
 * Removes the folders in `root` that test runs named after their process id (the first group of
 * `owner`) and whose process is gone: a run that was killed or crashed never ran its cleanup.
 * `beforeRemove` stops what may still run in such a folder. A folder whose process still runs,
 * whoever's it is, is left alone.
 */
export async function removeFoldersOfEndedRuns(
  root: string,
  owner: RegExp,
  beforeRemove?: (folder: string) => Promise<void>,
): Promise<void> {
  for (const entry of await readdir(root).catch(() => [])) {
    const pid = Number(owner.exec(entry)?.[1])
    if (!pid || isProcessRunning(pid)) continue
    const folder = join(root, entry)
    await beforeRemove?.(folder)
    await rm(folder, { recursive: true, force: true })
  }
}
