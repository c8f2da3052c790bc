/**
 * Resolves with what `check` returns once it neither throws nor returns `false`, trying again
 * every few milliseconds: for what the sandbox does after it answered (a delivery, a processor's
 * later answer after the clock moved). Rejects with the last failure after `timeoutMs` (10 s).
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 10_000, what = 'condition' }: { timeoutMs?: number; what?: string } = {},
): Promise<Exclude<T, false>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    let failure: unknown
    try {
      const result = await check()
      if (result !== false) return result as Exclude<T, false>
      failure = new Error(`${what} not met within ${timeoutMs} ms`)
    } catch (error) {
      failure = error
    }
    if (Date.now() > deadline) throw failure
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
