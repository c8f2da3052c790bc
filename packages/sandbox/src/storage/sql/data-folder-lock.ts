import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { SandboxError } from '../../errors'
import { isProcessRunning } from '../../process-running'

const lockFileName = 'chargekit-sandbox.pid'

/**
 * Claims the data folder for this process with a file holding its pid, and returns what frees
 * it. A folder held by a live process is refused with the reason; a lock left by a process that
 * died (killed, crashed) is taken over, so a restart after `kill -9` just works.
 */
export function lockDataFolder(dataDir: string): () => void {
  const file = join(dataDir, lockFileName)
  for (;;) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' })
      return () => rmSync(file, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new SandboxError(
          `Cannot lock the data folder ${dataDir}: ${(error as Error).message}`,
        )
      }
    }
    const holder = Number(readFileSync(file, 'utf8').trim())
    if (Number.isInteger(holder) && holder > 0 && isProcessRunning(holder)) {
      throw new SandboxError(
        `The data folder ${dataDir} is in use by another sandbox process (pid ${holder}): an embedded database belongs to one process. Stop that process, use another --data folder, or share state between processes with --database <postgres-url>.`,
      )
    }
    rmSync(file, { force: true })
  }
}
