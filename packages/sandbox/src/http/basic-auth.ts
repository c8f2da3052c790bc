import { createHash, timingSafeEqual } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import type { Account } from '../accounts/accounts'
import { tooManyFailedAttempts, unauthorized } from './api-problem'
import { type CredentialThrottle, clientAddress } from './credential-throttle'
import { needsPrivateKey, publicKeyMayCall } from './public-key-scope'
import { requestHeader } from './request-header'
import type { SandboxEnv } from './sandbox-env'

const digest = (text: string) => createHash('sha256').update(text).digest()
// Compared against when the account id is unknown, so that case takes as long as a wrong key.
const unknownAccountDigest = digest('chargekit-sandbox unknown account')

/**
 * HTTP Basic auth, in the two forms the service takes. From the merchant's server: account id
 * as user, private key as password; keys are compared as SHA-256 digests with `timingSafeEqual`,
 * so neither the key nor its length leaks through timing. From the customer's browser: the public
 * key as user and an empty password, allowed only what {@link publicKeyMayCall} lists (403
 * otherwise). Missing or wrong credentials answer 401 05.03.0002 with `WWW-Authenticate: Basic`;
 * wrong credentials also count against the client's address (with the account tried), and past
 * the throttle's limit that source's answer is 429 02.01.0000 with `Retry-After`, before the
 * credentials are checked. The dashboard's own calls are not counted here: its sign-in counts them against the
 * browser's address.
 */
export function basicAuth(
  accounts: readonly Account[],
  throttle: CredentialThrottle,
): MiddlewareHandler<SandboxEnv> {
  const byId = new Map(
    accounts.map((account) => [account.id, { account, key: digest(account.privateKey) }]),
  )
  const byPublicKey = new Map(accounts.map((account) => [account.publicKey, account]))
  return async (c, next) => {
    const credentials = parseBasic(requestHeader(c, 'authorization'))
    // Only attempts that present credentials are guesses worth counting.
    const address =
      credentials === undefined || c.env?.fromDashboard ? undefined : clientAddress(c.env)
    if (address !== undefined) {
      const retryAfter = throttle.retryAfter(address, credentials?.user)
      if (retryAfter !== undefined) throw tooManyFailedAttempts(retryAfter)
    }
    if (credentials?.password === '') {
      // The public key is no secret (every checkout page shows it): a plain lookup will do.
      const account = byPublicKey.get(credentials.user)
      if (account === undefined) {
        if (address !== undefined) throttle.recordFailure(address, undefined)
        throw unauthorized()
      }
      if (!publicKeyMayCall(c.req.method, c.req.path)) {
        throw needsPrivateKey(`${c.req.method} ${c.req.path}`)
      }
      c.set('account', account)
      c.set('credential', 'public')
      return next()
    }
    const entry = credentials === undefined ? undefined : byId.get(credentials.user)
    const given = digest(credentials?.password ?? '')
    const matches = timingSafeEqual(given, entry?.key ?? unknownAccountDigest)
    if (entry === undefined || !matches) {
      if (address !== undefined) throttle.recordFailure(address, credentials?.user)
      throw unauthorized()
    }
    c.set('account', entry.account satisfies Account)
    c.set('credential', 'private')
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
