import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * Listens on `port`, or on a free port when that one is taken (so a second demo, or anything
 * else on :3000, does not stop the shop from starting). Resolves to the port in use.
 */
export async function listenWithFallback(
  server: Server,
  port: number,
  host: string,
  onFallback?: (port: number) => void,
): Promise<number> {
  try {
    return await listen(server, port, host)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0) throw error
    const free = await listen(server, 0, host)
    onFallback?.(free)
    return free
  }
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error)
    server.once('error', onError)
    server.listen(port, host, () => {
      server.off('error', onError)
      resolve((server.address() as AddressInfo).port)
    })
  })
}

/** The URL form of a host: IPv6 literals go in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host
}
