import { createServer } from 'node:net'

/** Whether `error`, or an error it wraps, says the port is taken (EADDRINUSE). */
export function isPortTaken(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as NodeJS.ErrnoException).code === 'EADDRINUSE') return true
  }
  return false
}

/** Ports after a taken one tried before letting the system pick: what a person would try next. */
const nearbyPorts = 10

/**
 * A port of `host` nothing listens on, found by listening on it for a moment: one of the few
 * after `taken` (4011 after 4010), else one the system picks.
 */
export async function freePortNear(host: string, taken: number): Promise<number> {
  for (let port = taken + 1; port <= Math.min(taken + nearbyPorts, 65_535); port++) {
    if ((await listenBriefly(host, port)) !== undefined) return port
  }
  return (await listenBriefly(host, 0)) ?? 0
}

/** The port listened on and closed again, or undefined when it could not be. */
export function listenBriefly(host: string, port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(undefined))
    server.listen(port, host, () => {
      const address = server.address()
      const listened = typeof address === 'object' && address !== null ? address.port : undefined
      server.close(() => resolve(listened))
    })
  })
}
