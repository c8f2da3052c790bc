/**
 * Whether a process with this id runs, whoever's it is: what tells a lock or a folder left by a
 * process that died (killed, crashed) from one still in use.
 */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as a user this process may not signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
