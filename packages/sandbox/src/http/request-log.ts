import type { RequestLog } from '@chargekit/schemas'
import type { Context } from 'hono'
import { requestHeader } from './request-header'
import type { SandboxEnv } from './sandbox-env'

const clientVersion = /chargekit-client\/(\S+)/

/**
 * The `request_log` of the request that created an object. The sandbox has no GeoIP
 * database, so `country` is "ZZ" (the CLDR code for an unknown region); `library_version` is
 * read from a `chargekit-client/x.y.z` User-Agent, else null.
 */
export function requestLogOf(c: Context<SandboxEnv>): RequestLog {
  const userAgent = requestHeader(c, 'user-agent') ?? ''
  const address = c.env?.incoming?.socket.remoteAddress ?? '127.0.0.1'
  return Object.freeze({
    ip_address: address.startsWith('::ffff:') ? address.slice(7) : address,
    country: 'ZZ',
    user_agent: userAgent,
    library_version: clientVersion.exec(userAgent)?.[1] ?? null,
  })
}
