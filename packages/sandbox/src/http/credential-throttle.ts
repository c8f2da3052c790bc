import { isIPv6 } from 'node:net'
import type { HttpBindings } from '@hono/node-server'

export interface CredentialThrottleOptions {
  /**
   * Failed sign-ins one client address may make on one account within `windowMs`: a guesser of
   * that account from there. @default 20
   */
  maxFailuresPerAddressAndAccount?: number
  /**
   * Failed sign-ins one client address may make within `windowMs`, on any accounts: a guesser
   * of many accounts from there. @default 50
   */
  maxFailuresPerAddress?: number
  /** How long a failure counts, from the first of a run. @default 60_000 (one minute) */
  windowMs?: number
}

/**
 * Slows down credential guessing on the API and the dashboard sign-in. Failures are counted
 * against their source only: the client address with the account it tried, and the address on
 * its own. Once a count is at its limit, every attempt it covers is refused before its
 * credentials are checked — right ones too, or the answer would still tell a guess from the
 * key — until the window ends.
 *
 * An account is never blocked as such: a stranger who cannot sign in must not be able to keep
 * its owner out, so the owner signing in from any other address gets in at once however many
 * guesses were made. A guess spread over many addresses gets each address's quota, no more.
 *
 * A success clears nothing: the default credentials are public, so clearing an address's
 * failures on any success would let a guesser reset its count with them between guesses.
 */
export interface CredentialThrottle {
  /** Seconds before this address may try this account again; undefined when it may now. */
  retryAfter(address: string, accountId: string | undefined): number | undefined
  /** Counts a refused attempt from `address` with the account id it claimed. */
  recordFailure(address: string, accountId: string | undefined): void
}

export const defaultCredentialThrottle = {
  maxFailuresPerAddressAndAccount: 20,
  maxFailuresPerAddress: 50,
  windowMs: 60_000,
} satisfies Required<CredentialThrottleOptions>

/** Sources tracked at once per table; beyond it the oldest run is forgotten, so memory stays bounded. */
const maxTrackedSources = 10_000

export function createCredentialThrottle(
  accountIds: Iterable<string>,
  options: CredentialThrottleOptions = {},
  now: () => number = () => performance.now(),
): CredentialThrottle {
  const { maxFailuresPerAddressAndAccount, maxFailuresPerAddress, windowMs } = {
    ...defaultCredentialThrottle,
    ...options,
  }
  const known = new Set(accountIds)
  const byAddress = new FailureWindows(windowMs, maxTrackedSources)
  const byAddressAndAccount = new FailureWindows(windowMs, maxTrackedSources)
  // Ids of no account are counted per address only: pairs with made-up ids would be noise.
  const pairOf = (address: string, accountId: string | undefined) =>
    accountId !== undefined && known.has(accountId) ? `${address} ${accountId}` : undefined
  return {
    retryAfter(address, accountId) {
      const time = now()
      const pair = pairOf(address, accountId)
      const waitMs = Math.max(
        byAddress.blockedFor(address, maxFailuresPerAddress, time) ?? 0,
        pair === undefined
          ? 0
          : (byAddressAndAccount.blockedFor(pair, maxFailuresPerAddressAndAccount, time) ?? 0),
      )
      return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : undefined
    },
    recordFailure(address, accountId) {
      const time = now()
      byAddress.add(address, time)
      const pair = pairOf(address, accountId)
      if (pair !== undefined) byAddressAndAccount.add(pair, time)
    },
  }
}

/**
 * The address a request came from, as the throttle keys it. IPv6 clients are keyed by their /64
 * network, which one host usually holds whole; requests made in-process share one key.
 * `X-Forwarded-For` is not read: any client can write it.
 */
export function clientAddress(env: Partial<HttpBindings> | undefined): string {
  const address = env?.incoming?.socket.remoteAddress
  return address === undefined ? 'in-process' : sourceAddress(address)
}

/** A socket's remote address as a source: IPv4 (also when mapped into IPv6), or an IPv6 /64. */
export function sourceAddress(remoteAddress: string): string {
  if (remoteAddress.startsWith('::ffff:')) return remoteAddress.slice('::ffff:'.length)
  return isIPv6(remoteAddress)
    ? `${expandIPv6(remoteAddress).slice(0, 4).join(':')}::/64`
    : remoteAddress
}

function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  return [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
}

/**
 * Failure counts in fixed windows that start at a key's first failure. Every window has the
 * same length, so the Map's insertion order is also expiry order: expired entries are pruned
 * from the front, and at `maxKeys` the front one (the nearest to expiring) makes room.
 */
class FailureWindows {
  readonly #windows = new Map<string, { count: number; endsAt: number }>()

  constructor(
    readonly windowMs: number,
    readonly maxKeys: number,
  ) {}

  /** Milliseconds left in the key's window when it has reached `limit` failures. */
  blockedFor(key: string, limit: number, time: number): number | undefined {
    const window = this.#windows.get(key)
    if (window === undefined || window.endsAt <= time || window.count < limit) return undefined
    return window.endsAt - time
  }

  add(key: string, time: number): void {
    this.#prune(time)
    const window = this.#windows.get(key)
    if (window !== undefined && window.endsAt > time) {
      window.count += 1
      return
    }
    this.#windows.delete(key)
    if (this.#windows.size >= this.maxKeys) {
      const oldest = this.#windows.keys().next().value
      if (oldest !== undefined) this.#windows.delete(oldest)
    }
    this.#windows.set(key, { count: 1, endsAt: time + this.windowMs })
  }

  #prune(time: number): void {
    for (const [key, window] of this.#windows) {
      if (window.endsAt > time) return
      this.#windows.delete(key)
    }
  }
}
