import { createHash, timingSafeEqual } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import type { Account } from '../accounts/accounts'
import { tooManyFailedAttempts, unauthorized } from '../api-problem'
import { type CredentialThrottle, clientAddress } from './credential-throttle'
import { requestHeader } from './request-header'
import type { SandboxEnv } from './sandbox-env'

const digest = (text: string) => createHash('sha256').update(text).digest()
// Compared against when the account id is unknown, so that case takes as long as a wrong key.
const unknownAccountDigest = digest('chargekit-sandbox unknown account')

/**
 * HTTP Basic auth: account id as user, private key as password. Keys are compared as SHA-256
 * digests with `timingSafeEqual`, so neither the key nor its length leaks through timing.
 * Failures answer 401 05.03.0002 with `WWW-Authenticate: Basic`; wrong credentials also count
 * against the client's address and the account, and past the throttle's limit the answer is
 * 429 02.01.0000 with `Retry-After`, before the credentials are checked. The dashboard's own
 * calls are not counted here: its sign-in counts them against the browser's address.
 */
export function basicAuth(
  accounts: readonly Account[],
  throttle: CredentialThrottle,
): MiddlewareHandler<SandboxEnv> {
  const byId = new Map(
    accounts.map((account) => [account.id, { account, key: digest(account.key) }]),
  )
  return async (c, next) => {
    const credentials = parseBasic(requestHeader(c, 'authorization'))
    const entry = credentials === undefined ? undefined : byId.get(credentials.user)
    // Only attempts that present credentials are guesses worth counting.
    const address =
      credentials === undefined || c.env?.fromDashboard ? undefined : clientAddress(c.env)
    if (address !== undefined) {
      const retryAfter = throttle.retryAfter(address, credentials?.user)
      if (retryAfter !== undefined) throw tooManyFailedAttempts(retryAfter)
    }
    const given = digest(credentials?.password ?? '')
    const matches = timingSafeEqual(given, entry?.key ?? unknownAccountDigest)
    if (entry === undefined || !matches) {
      if (address !== undefined) throttle.recordFailure(address, credentials?.user)
      throw unauthorized()
    }
    c.set('account', entry.account satisfies Account)
    await next()
  }
}

function parseBasic(header: string | undefined): { user: string; password: string } | undefined {
  const match = header === undefined ? null : /^Basic +([A-Za-z0-9+/=]+) *$/i.exec(header)
  if (match?.[1] === undefined) return undefined
  const decoded = Buffer.from(match[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return undefined
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}
