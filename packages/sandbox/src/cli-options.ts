import { parseArgs } from 'node:util'
import type { SandboxAccountOptions } from './accounts/account-options'
import { SandboxError } from './errors'
import type { StartSandboxOptions } from './start-sandbox'

const defaultCliPort = 4010

export const cliUsage = `Usage: chargekit-sandbox [options]

Runs the chargekit sandbox: a local emulator of the payment lifecycle service.

Options:
  --port <number>           TCP port (default ${defaultCliPort}; 0 picks a free one)
  --host <address>          interface to listen on (default 127.0.0.1)
  --account <id:key>        a merchant account; repeat for several
                            (default acct_sandbox:sk_sandbox)
  --time-scale <number>     multiplies simulated delays: retries, acquirer answers,
                            settlement (default 1; 0.001 = 1000x faster)
  --signing-secret <secret> sign deliveries with Standard Webhooks headers
  --data <dir>              keep state in an embedded database in this folder
                            (survives restarts; one sandbox process per folder)
  --database <postgres-url> keep state in a PostgreSQL database, which several
                            sandbox processes may share
                            (default for both: in memory, lost when it stops)
  --quiet                   do not log each request
  -h, --help                show this help
`

export type CliCommand =
  | { kind: 'help' }
  | { kind: 'start'; options: StartSandboxOptions & { port: number }; quiet: boolean }

/** Reads the command line; a bad flag is a SandboxError whose message says what is expected. */
export function parseCliArguments(argv: readonly string[]): CliCommand {
  let values: ReturnType<typeof parse>['values']
  try {
    values = parse(argv).values
  } catch (error) {
    throw new SandboxError(
      `${(error as Error).message.replace(/\.$/, '')}. Run chargekit-sandbox --help for usage.`,
    )
  }
  if (values.help === true) return { kind: 'help' }
  const options: StartSandboxOptions & { port: number } = {
    port: integerFlag('--port', values.port, defaultCliPort, 0, 65_535),
    host: values.host ?? '127.0.0.1',
  }
  if (values.account !== undefined) options.accounts = values.account.map(accountFlag)
  if (values['time-scale'] !== undefined) {
    const scale = Number(values['time-scale'])
    if (!(Number.isFinite(scale) && scale >= 0)) {
      throw new SandboxError(`--time-scale expects a number >= 0, such as 1 or 0.001`)
    }
    options.timeScale = scale
  }
  if (values['signing-secret'] !== undefined) options.signingSecret = values['signing-secret']
  if (values.data !== undefined && values.database !== undefined) {
    throw new SandboxError('--data and --database exclude each other: state lives in one place')
  }
  if (values.data !== undefined) options.data = values.data
  if (values.database !== undefined) options.database = values.database
  return { kind: 'start', options, quiet: values.quiet === true }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      account: { type: 'string', multiple: true },
      'time-scale': { type: 'string' },
      'signing-secret': { type: 'string' },
      data: { type: 'string' },
      database: { type: 'string' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}

function integerFlag(
  name: string,
  text: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (text === undefined) return fallback
  const value = Number(text)
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new SandboxError(`${name} expects a whole number from ${min} to ${max}; got "${text}"`)
  }
  return value
}

function accountFlag(text: string): SandboxAccountOptions {
  const colon = text.indexOf(':')
  if (colon <= 0 || colon === text.length - 1) {
    throw new SandboxError(`--account expects ID:KEY, such as acct_shop:sk_shop_secret`)
  }
  return { id: text.slice(0, colon), key: text.slice(colon + 1) }
}
