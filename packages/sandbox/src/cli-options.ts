import { parseArgs } from 'node:util'
import { closestName } from '@chargekit/errors'
import * as z from 'zod'
import type { SandboxAccountOptions } from './accounts/account-options'
import { SandboxError } from './errors'
import { startSandboxOptionsSchema } from './sandbox-options'
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

Exit codes: 0 stopped cleanly, 1 failed to start or stop, 2 the command line is wrong.
`

/** The command line itself is wrong: the CLI prints the message and exits with code 2. */
export class UsageError extends SandboxError {
  constructor(message: string) {
    super(`${message}. Run chargekit-sandbox --help for usage.`)
    this.name = 'UsageError'
  }
}

export type CliCommand =
  | { kind: 'help' }
  | {
      kind: 'start'
      options: StartSandboxOptions & { port: number }
      /** The `--processor` modules, loaded by the CLI before it starts the sandbox. */
      processorModules: readonly string[]
      quiet: boolean
    }

const flagSyntax = {
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
} as const

/** A flag's text as a whole number from `min` to `max`. */
function wholeNumber(min: number, max: number) {
  return z
    .string()
    .refine((text) => /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max, {
      error: `expects a whole number from ${min} to ${max}`,
    })
    .transform(Number)
}

const accountFlag = z.string().transform((text, context): SandboxAccountOptions => {
  const [id, privateKey, publicKey, ...rest] = text.split(':')
  if (!id || !privateKey || publicKey === '' || rest.length > 0) {
    context.addIssue({
      code: 'custom',
      message:
        'expects ID:PRIVATE_KEY or ID:PRIVATE_KEY:PUBLIC_KEY, such as acct_shop:sk_shop_secret:pk_shop',
    })
    return z.NEVER
  }
  return publicKey === undefined ? { id, privateKey } : { id, privateKey, publicKey }
})

const option = startSandboxOptionsSchema.shape

/**
 * The flags' values as `parseArgs` reads them. Numbers are read from their text here; a flag
 * that passes its text straight to `startSandbox` is checked by that option's own rule, so the
 * CLI reports it by the flag's name before anything starts.
 */
const flagsSchema = z
  .object({
    port: wholeNumber(0, 65_535).optional(),
    host: option.host,
    account: z.array(accountFlag).optional(),
    'time-scale': z
      .string()
      .refine((text) => text.trim() !== '' && Number(text) >= 0 && Number.isFinite(Number(text)), {
        error: 'expects a number >= 0, such as 1 or 0.001',
      })
      .transform(Number)
      .optional(),
    'signing-secret': option.signingSecret,
    'allow-http-events-url': z.boolean().optional(),
    'public-url': option.publicUrl,
    'max-connections': wholeNumber(1, 1_000_000).optional(),
    'retain-charges': wholeNumber(1, Number.MAX_SAFE_INTEGER).optional(),
    'cors-origin': option.corsOrigins,
    'max-declined-instruments': wholeNumber(1, 1_000_000).optional(),
    data: option.data,
    database: option.database,
    processor: z.array(z.string()).optional(),
    quiet: z.boolean().optional(),
  })
  .refine((flags) => flags.data === undefined || flags.database === undefined, {
    error: '--data and --database exclude each other: state lives in one place',
  })

type Flags = z.output<typeof flagsSchema>

/** Flags whose value may be a password: never repeated in an error. */
const secretFlags: ReadonlySet<string> = new Set(['account', 'signing-secret', 'database'])

/** Reads the command line; a bad flag is a {@link UsageError} naming it and what is expected. */
export function parseCliArguments(argv: readonly string[]): CliCommand {
  const values = readFlags(argv)
  if (values.help === true) return { kind: 'help' }
  const result = flagsSchema.safeParse(values)
  if (!result.success) throw usageErrorOf(result.error, values)
  return startCommand(result.data)
}

function readFlags(argv: readonly string[]): Record<string, unknown> {
  try {
    return parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: flagSyntax,
    }).values
  } catch (error) {
    const { code, message } = error as { code?: string; message: string }
    const flag = /'(--?[^' =]+)/.exec(message)?.[1] ?? ''
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      throw new UsageError(
        message.includes('argument missing') ? `${flag} expects a value` : `${flag} takes no value`,
      )
    }
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const intended = closestName(
        flag,
        Object.keys(flagSyntax).map((name) => `--${name}`),
      )
      throw new UsageError(
        `Unknown option '${flag}'${intended === undefined ? '' : ` (did you mean ${intended}?)`}`,
      )
    }
    throw new UsageError(message.replace(/\.$/, ''))
  }
}

function usageErrorOf(error: z.ZodError, values: Record<string, unknown>): UsageError {
  const [issue] = error.issues
  const [flag, index] = issue?.path ?? []
  // A rule between flags names them in its message.
  if (issue === undefined || flag === undefined) {
    return new UsageError(issue?.message ?? 'invalid flags')
  }
  const given = values[String(flag)]
  const text = index === undefined ? given : (given as unknown[])[Number(index)]
  const got = secretFlags.has(String(flag)) ? '' : `; got ${JSON.stringify(text)}`
  return new UsageError(`--${String(flag)} ${issue.message}${got}`)
}

function startCommand(flags: Flags): CliCommand {
  const options: StartSandboxOptions & { port: number } = {
    port: flags.port ?? defaultCliPort,
    host: flags.host ?? '127.0.0.1',
  }
  if (flags.account !== undefined) options.accounts = flags.account
  if (flags['time-scale'] !== undefined) options.timeScale = flags['time-scale']
  if (flags['signing-secret'] !== undefined) options.signingSecret = flags['signing-secret']
  if (flags['allow-http-events-url'] === true) options.allowHttpEventsUrl = true
  if (flags['public-url'] !== undefined) options.publicUrl = flags['public-url']
  if (flags['max-connections'] !== undefined) {
    options.connections = { maxConnections: flags['max-connections'] }
  }
  if (flags['retain-charges'] !== undefined) options.retainCharges = flags['retain-charges']
  if (flags['cors-origin'] !== undefined) options.corsOrigins = flags['cors-origin']
  if (flags['max-declined-instruments'] !== undefined) {
    options.maxDeclinedInstruments = flags['max-declined-instruments']
  }
  if (flags.data !== undefined) options.data = flags.data
  if (flags.database !== undefined) options.database = flags.database
  return {
    kind: 'start',
    options,
    processorModules: flags.processor ?? [],
    quiet: flags.quiet === true,
  }
}
