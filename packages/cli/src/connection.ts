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

/** Each setting's variable and the sandbox's default, by its flag. */
const settings = {
  'base-url': { variable: 'CHARGEKIT_BASE_URL', fallback: sandboxDefaults.baseUrl },
  'account-id': { variable: 'CHARGEKIT_ACCOUNT_ID', fallback: sandboxDefaults.accountId },
  'private-key': { variable: 'CHARGEKIT_PRIVATE_KEY', fallback: sandboxDefaults.privateKey },
} as const satisfies Record<keyof ConnectionFlags, { variable: string; fallback: string }>

/**
 * The client for a command: flags first, then `CHARGEKIT_BASE_URL`, `CHARGEKIT_ACCOUNT_ID` and
 * `CHARGEKIT_PRIVATE_KEY`, then the local sandbox's defaults.
 */
export function connect(
  command: string,
  flags: ConnectionFlags,
  env: Readonly<Record<string, string | undefined>>,
): Connection {
  const given = (flag: keyof ConnectionFlags) => {
    const { variable, fallback } = settings[flag]
    if (flags[flag] !== undefined) return { value: flags[flag], from: `--${flag}` }
    if (env[variable]) return { value: env[variable], from: variable }
    return { value: fallback, from: `--${flag} (or ${variable})` }
  }
  const baseUrl = given('base-url')
  const accountId = given('account-id')
  const privateKey = given('private-key')
  const url = URL.canParse(baseUrl.value) ? new URL(baseUrl.value) : undefined
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(
      `${baseUrl.from} expects an http(s) URL such as ${sandboxDefaults.baseUrl}; got "${baseUrl.value}"`,
      command,
    )
  }
  try {
    const client = createClient({
      baseUrl: baseUrl.value,
      accountId: accountId.value,
      privateKey: privateKey.value,
    })
    return {
      client,
      baseUrl: url.origin + url.pathname.replace(/\/+$/, ''),
      accountId: accountId.value,
    }
  } catch (error) {
    if (!(error instanceof ChargekitError)) throw error
    // The client's checks name its options ("createClient: privateKey is too short…"): the
    // message names the flag or the variable the value came from instead.
    const sources = { baseUrl, accountId, privateKey }
    const message = error.message
      .replace(/^createClient: /, '')
      .replace(/\.$/, '')
      .replace(
        /^(baseUrl|accountId|privateKey)\b/,
        (option) => sources[option as keyof typeof sources].from,
      )
    throw new UsageError(message, command)
  }
}
