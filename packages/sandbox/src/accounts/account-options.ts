/** Requests per second an account may make before it gets 429 (token bucket). */
export interface RateLimitOptions {
  /** Sustained rate. */
  requestsPerSecond: number
  /** Requests allowed at once above the sustained rate. Default: one second's worth. */
  burst?: number
}

interface AccountSettings {
  /** The account id: the HTTP Basic user of calls made with the private key. */
  id: string
  /**
   * The public key: the HTTP Basic user (with an empty password) of calls made from a customer's
   * browser, which may only create instruments and charges and read charge types, charges and
   * instruments. Default: generated at start (`pk_…`), printed by the CLI and listed in
   * `sandbox.accounts`.
   */
  publicKey?: string
  /**
   * Channel labels this account may use (`card_onetime_no_processor`, …). Default: one channel
   * per charge type of every registered processor.
   */
  channels?: readonly string[]
  /** Overrides the sandbox-wide `rateLimit` for this account; `false` turns it off. */
  rateLimit?: RateLimitOptions | false
}

/**
 * One merchant account of the sandbox: its id, its private key (the HTTP Basic password of
 * server-side calls) and its public key (for browsers). `key` is the older name of `privateKey`,
 * still accepted.
 */
export type SandboxAccountOptions = AccountSettings &
  (
    | { privateKey: string; key?: undefined }
    | {
        /** @deprecated Use `privateKey`; `key` is its older name. */
        key: string
        privateKey?: undefined
      }
  )

/** The account the sandbox creates when `accounts` is not given. */
export const defaultAccount: SandboxAccountOptions = {
  id: 'acct_sandbox',
  privateKey: 'sk_sandbox',
  publicKey: 'pk_sandbox',
}
