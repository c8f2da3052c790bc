import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** Listens on `port` (0: any free one); resolves to the port in use. */
export function listen(server: Server, port: number, host: string): Promise<number> {
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
