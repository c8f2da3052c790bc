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
  --account <id:private_key[:public_key]>
                            a merchant account; repeat for several. Without a
                            public key one is generated and printed
                            (default acct_sandbox:sk_sandbox:pk_sandbox)
  --time-scale <number>     multiplies simulated delays: retries, acquirer answers,
                            settlement (default 1; 0.001 = 1000x faster)
  --signing-secret <secret> sign deliveries with Standard Webhooks headers
  --allow-http-events-url   accept plain http events_url to any host, such as a
                            docker-compose service (default: https, or http to
                            127.0.0.1, localhost and [::1] only)
  --public-url <url>        origin browsers reach the sandbox at, for 3-D Secure links
                            (default the listening URL)
  --max-connections <n>     open connections at once (default 1000)
  --retain-charges <n>      charges kept in memory; past it the oldest is dropped
                            with its objects and events (default 50000)
  --cors-origin <origin>    an origin whose pages may call the API from a browser,
                            such as https://shop.example; repeat for several
                            (default: any origin)
  --max-declined-instruments <number>
                            declined cards one charge takes before it fails
                            with 02.01.0000 Too Many Tries (default 5)
  --data <dir>              keep state in an embedded database in this folder
                            (survives restarts; one sandbox process per folder)
  --database <postgres-url> keep state in a PostgreSQL database, which several
                            sandbox processes may share
                            (default for both: in memory, lost when it stops)
  --processor <module>      add the processors a module exports (its default
                            export, or \`processors\`): a path or a package name
                            resolved from the current directory; repeat for several
  --quiet                   do not log each request
  -h, --help                show this help
`

export type CliCommand =
  | { kind: 'help' }
  | {
      kind: 'start'
      options: StartSandboxOptions & { port: number }
      /** The `--processor` modules, loaded by the CLI before it starts the sandbox. */
      processorModules: readonly string[]
      quiet: boolean
    }

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
  if (values['allow-http-events-url'] === true) options.allowHttpEventsUrl = true
  if (values['public-url'] !== undefined) options.publicUrl = values['public-url']
  if (values['max-connections'] !== undefined) {
    const maxConnections = integerFlag('--max-connections', values['max-connections'], 0, 1, 1e6)
    options.connections = { maxConnections }
  }
  if (values['retain-charges'] !== undefined) {
    options.retainCharges = integerFlag(
      '--retain-charges',
      values['retain-charges'],
      0,
      1,
      Number.MAX_SAFE_INTEGER,
    )
  }
  if (values['cors-origin'] !== undefined) options.corsOrigins = values['cors-origin']
  if (values['max-declined-instruments'] !== undefined) {
    options.maxDeclinedInstruments = integerFlag(
      '--max-declined-instruments',
      values['max-declined-instruments'],
      5,
      1,
      1_000_000,
    )
  }
  if (values.data !== undefined && values.database !== undefined) {
    throw new SandboxError('--data and --database exclude each other: state lives in one place')
  }
  if (values.data !== undefined) options.data = values.data
  if (values.database !== undefined) options.database = values.database
  return {
    kind: 'start',
    options,
    processorModules: values.processor ?? [],
    quiet: values.quiet === true,
  }
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
      'allow-http-events-url': { type: 'boolean' },
      'public-url': { type: 'string' },
      'max-connections': { type: 'string' },
      'retain-charges': { type: 'string' },
      'cors-origin': { type: 'string', multiple: true },
      'max-declined-instruments': { type: 'string' },
      data: { type: 'string' },
      database: { type: 'string' },
      processor: { type: 'string', multiple: true },
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
  const [id, privateKey, publicKey, ...rest] = text.split(':')
  if (!id || !privateKey || publicKey === '' || rest.length > 0) {
    throw new SandboxError(
      `--account expects ID:PRIVATE_KEY or ID:PRIVATE_KEY:PUBLIC_KEY, such as acct_shop:sk_shop_secret:pk_shop`,
    )
  }
  return publicKey === undefined ? { id, privateKey } : { id, privateKey, publicKey }
}
