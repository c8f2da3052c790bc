/**
 * Starts something on `port`, or on a free port when that one is taken, so a second demo (or
 * anything else on :3000 or :4010) does not stop the shop or the sandbox from starting.
 * `onFallback` gets what started instead, to say where it went.
 */
export async function startOnPortOrFree<T>(
  port: number,
  start: (port: number) => Promise<T>,
  onFallback: (started: T) => void,
): Promise<T> {
  try {
    return await start(port)
  } catch (error) {
    if (port === 0 || !isAddressInUse(error)) throw error
    const started = await start(0)
    onFallback(started)
    return started
  }
}

/** EADDRINUSE, also when wrapped: startSandbox reports it as the cause of a SandboxError. */
function isAddressInUse(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as NodeJS.ErrnoException).code === 'EADDRINUSE') return true
  }
  return false
}
