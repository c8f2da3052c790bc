/** Requests per second an account may make before it gets 429 (token bucket). */
export interface RateLimitOptions {
  /** Sustained rate. */
  requestsPerSecond: number
  /** Requests allowed at once above the sustained rate. Default: one second's worth. */
  burst?: number
}

/** One merchant account of the sandbox: HTTP Basic user (`id`) and password (`key`). */
export interface SandboxAccountOptions {
  id: string
  key: string
  /**
   * Channel labels this account may use (`card_onetime_no_processor`, …). Default: one channel
   * per charge type of every registered processor.
   */
  channels?: readonly string[]
  /** Overrides the sandbox-wide `rateLimit` for this account; `false` turns it off. */
  rateLimit?: RateLimitOptions | false
}

/** The account the sandbox creates when `accounts` is not given. */
export const defaultAccount: SandboxAccountOptions = { id: 'acct_sandbox', key: 'sk_sandbox' }
