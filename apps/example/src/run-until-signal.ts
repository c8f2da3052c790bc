/**
 * Keeps the process up until Ctrl-C (SIGINT) or SIGTERM, then runs `stop` once. A second Ctrl-C
 * while stopping exits at once, for when something hangs.
 */
export function runUntilSignal(stop: () => Promise<void>): void {
  let stopping = false
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130)
    stopping = true
    console.log(`\n${signal}: stopping…`)
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Could not stop cleanly:', error)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
}
