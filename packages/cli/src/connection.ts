import { type ChargekitClient, ChargekitError, createClient } from '@chargekit/client'
import { UsageError } from './errors'

/** A sandbox started with `npx @chargekit/sandbox` and no flags: its address and default account. */
export const sandboxDefaults = {
  baseUrl: 'http://127.0.0.1:4010',
  accountId: 'acct_sandbox',
  privateKey: 'sk_sandbox',
} as const

export interface ConnectionFlags {
  'base-url'?: string | undefined
  'account-id'?: string | undefined
  'private-key'?: string | undefined
}

export interface Connection {
  client: ChargekitClient
  /** The service origin the client calls, for messages. */
  baseUrl: string
  accountId: string
}

/**
 * The client for a command: flags first, then `CHARGEKIT_BASE_URL`, `CHARGEKIT_ACCOUNT_ID` and
 * `CHARGEKIT_PRIVATE_KEY`, then the local sandbox's defaults.
 */
export function connect(
  command: string,
  flags: ConnectionFlags,
  env: Readonly<Record<string, string | undefined>>,
): Connection {
  const setting = (flag: keyof ConnectionFlags, variable: string, fallback: string) =>
    flags[flag] ?? (env[variable] || undefined) ?? fallback
  const baseUrl = setting('base-url', 'CHARGEKIT_BASE_URL', sandboxDefaults.baseUrl)
  const accountId = setting('account-id', 'CHARGEKIT_ACCOUNT_ID', sandboxDefaults.accountId)
  const privateKey = setting('private-key', 'CHARGEKIT_PRIVATE_KEY', sandboxDefaults.privateKey)
  const url = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(
      `--base-url (or CHARGEKIT_BASE_URL) expects an http(s) URL such as ${sandboxDefaults.baseUrl}; got "${baseUrl}"`,
      command,
    )
  }
  try {
    const client = createClient({ baseUrl, accountId, privateKey })
    return { client, baseUrl: url.origin + url.pathname.replace(/\/+$/, ''), accountId }
  } catch (error) {
    // The client's checks name its options; say which flag or variable to fix instead.
    if (error instanceof ChargekitError) {
      throw new UsageError(
        `${error.message.replace(/^createClient: /, '').replace(/\.$/, '')} (flags --base-url, --account-id, --private-key, or CHARGEKIT_BASE_URL, CHARGEKIT_ACCOUNT_ID, CHARGEKIT_PRIVATE_KEY)`,
        command,
      )
    }
    throw error
  }
}
