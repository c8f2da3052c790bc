import { isIPv6 } from 'node:net'
import type { HttpBindings } from '@hono/node-server'

export interface CredentialThrottleOptions {
  /** Failed sign-ins one client address may make within `windowMs`, on any accounts. @default 20 */
  maxFailuresPerAddress?: number
  /**
   * Failed sign-ins on one account within `windowMs`, from all addresses together: stops a
   * guess spread over many addresses. @default 100
   */
  maxFailuresPerAccount?: number
  /** How long a failure counts, from the first of a run. @default 60_000 (one minute) */
  windowMs?: number
}

/**
 * Slows down credential guessing on the API and the dashboard sign-in. Failures are counted per
 * client address and per account in fixed windows; once either count is at its limit, every
 * attempt it covers is refused before its credentials are checked — right ones too, or the
 * answer would still tell a guess from the key — until the window ends.
 *
 * A success clears nothing: the default credentials are public, so clearing an address's
 * failures on any success would let a guesser reset its count with them between guesses, and
 * one address's success must not forgive another's failures on the same account.
 */
export interface CredentialThrottle {
  /** Seconds before this address may try this account again; undefined when it may now. */
  retryAfter(address: string, accountId: string | undefined): number | undefined
  /** Counts a refused attempt with the account id it claimed (ids of no account count only per address). */
  recordFailure(address: string, accountId: string | undefined): void
}

export const defaultCredentialThrottle = {
  maxFailuresPerAddress: 20,
  maxFailuresPerAccount: 100,
  windowMs: 60_000,
} satisfies Required<CredentialThrottleOptions>

/** Addresses tracked at once; beyond it the oldest run is forgotten, so memory stays bounded. */
const maxTrackedAddresses = 10_000

export function createCredentialThrottle(
  accountIds: Iterable<string>,
  options: CredentialThrottleOptions = {},
  now: () => number = () => performance.now(),
): CredentialThrottle {
  const { maxFailuresPerAddress, maxFailuresPerAccount, windowMs } = {
    ...defaultCredentialThrottle,
    ...options,
  }
  const known = new Set(accountIds)
  const byAddress = new FailureWindows(windowMs, maxTrackedAddresses)
  // Only configured accounts are counted, so this map is bounded by the account list.
  const byAccount = new FailureWindows(windowMs, known.size)
  const account = (id: string | undefined) => (id !== undefined && known.has(id) ? id : undefined)
  return {
    retryAfter(address, accountId) {
      const time = now()
      const id = account(accountId)
      const waitMs = Math.max(
        byAddress.blockedFor(address, maxFailuresPerAddress, time) ?? 0,
        id === undefined ? 0 : (byAccount.blockedFor(id, maxFailuresPerAccount, time) ?? 0),
      )
      return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : undefined
    },
    recordFailure(address, accountId) {
      const time = now()
      byAddress.add(address, time)
      const id = account(accountId)
      if (id !== undefined) byAccount.add(id, time)
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
  if (address === undefined) return 'in-process'
  if (address.startsWith('::ffff:')) return address.slice('::ffff:'.length)
  return isIPv6(address) ? `${expandIPv6(address).slice(0, 4).join(':')}::/64` : address
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
