import { type ParseArgsConfig, parseArgs } from 'node:util'
import { closestName } from '@chargekit/errors'
import * as z from 'zod'
import type { SandboxAccountOptions } from './accounts/account-options'
import { SandboxError } from './errors'
import { signingSecretText, startSandboxOptionsSchema } from './sandbox-options'
import type { StartSandboxOptions } from './start-sandbox'

const defaultCliPort = 4010
const defaultShutdownSeconds = 10
const defaultStartupSeconds = 30

/**
 * One setting of `chargekit-sandbox`: its flag and the environment variables that give it when
 * the flag is absent (the first one set wins), so a container or a compose file configures the
 * sandbox without a command line.
 */
interface Setting {
  variables: readonly string[]
  /** What the flag takes, as the help shows it; a switch takes nothing. */
  value?: string
  /** Repeatable: its variable holds a comma-separated list. */
  multiple?: true
  /** May hold a password or a key: never repeated in an error. */
  secret?: true
  /** What it does, for `--help` (wrapped there). */
  help: string
}

/** Every setting, in the order `--help` lists them. */
const settings = {
  port: {
    value: '<number>',
    variables: ['CHARGEKIT_PORT', 'PORT'],
    help: `TCP port (default ${defaultCliPort}; 0 picks a free one)`,
  },
  host: {
    value: '<address>',
    variables: ['CHARGEKIT_HOST'],
    help: 'interface to listen on (default 127.0.0.1; 0.0.0.0 in a container)',
  },
  account: {
    value: '<id:private_key[:public_key]>',
    variables: ['CHARGEKIT_ACCOUNTS'],
    multiple: true,
    secret: true,
    help: 'a merchant account; repeat for several. Without a public key one is generated and printed (default acct_sandbox:sk_sandbox:pk_sandbox)',
  },
  'time-scale': {
    value: '<number>',
    variables: ['CHARGEKIT_TIME_SCALE'],
    help: 'multiplies simulated delays: retries, acquirer answers, settlement (default 1; 0.001 = 1000x faster)',
  },
  'signing-secret': {
    value: '<secret>',
    variables: ['CHARGEKIT_SIGNING_SECRET'],
    secret: true,
    help: "sign every account's deliveries with this Standard Webhooks secret (default: each account's own, made at its first start, kept with the state and printed at start)",
  },
  'no-signing': {
    variables: ['CHARGEKIT_NO_SIGNING'],
    help: 'deliver unsigned, as the production service does (no Standard Webhooks headers)',
  },
  'allow-http-events-url': {
    variables: ['CHARGEKIT_ALLOW_HTTP_EVENTS_URL'],
    help: 'accept plain http events_url to any host, such as a docker-compose service (default: https, or http to 127.0.0.1, localhost and [::1] only)',
  },
  'public-url': {
    value: '<url>',
    variables: ['CHARGEKIT_PUBLIC_URL'],
    help: 'origin browsers reach the sandbox at, for 3-D Secure links (default the listening URL)',
  },
  'max-connections': {
    value: '<n>',
    variables: ['CHARGEKIT_MAX_CONNECTIONS'],
    help: 'open connections at once (default 1000)',
  },
  'max-connections-per-address': {
    value: '<n>',
    variables: ['CHARGEKIT_MAX_CONNECTIONS_PER_ADDRESS'],
    help: 'open connections at once from one client address (default 256)',
  },
  'retain-charges': {
    value: '<n>',
    variables: ['CHARGEKIT_RETAIN_CHARGES'],
    help: 'charges kept in memory; past it the oldest is dropped with its objects and events (default 5000, some 150 MB; --data DIR keeps everything on disk)',
  },
  'cors-origin': {
    value: '<origin>',
    variables: ['CHARGEKIT_CORS_ORIGINS'],
    multiple: true,
    help: 'an origin whose pages may call the API from a browser, such as https://shop.example; repeat for several (default: any origin)',
  },
  'max-declined-instruments': {
    value: '<n>',
    variables: ['CHARGEKIT_MAX_DECLINED_INSTRUMENTS'],
    help: 'declined cards one charge takes before it fails with 02.01.0000 Too Many Tries (default 5)',
  },
  data: {
    value: '<dir>',
    variables: ['CHARGEKIT_DATA'],
    help: 'keep state in an embedded database in this folder (survives restarts; one sandbox process per folder)',
  },
  database: {
    value: '<postgres-url>',
    variables: ['CHARGEKIT_DATABASE_URL', 'DATABASE_URL'],
    secret: true,
    help: 'keep state in a PostgreSQL database, which several sandbox processes may share (default for both: in memory, lost when it stops). A database variable wins over CHARGEKIT_DATA; the two flags exclude each other',
  },
  'startup-timeout': {
    value: '<seconds>',
    variables: ['CHARGEKIT_STARTUP_TIMEOUT'],
    help: `how long to keep trying to open the store at start: a database still starting, a folder a stopping sandbox still holds (default ${defaultStartupSeconds})`,
  },
  'shutdown-timeout': {
    value: '<seconds>',
    variables: ['CHARGEKIT_SHUTDOWN_TIMEOUT'],
    help: `on SIGTERM or SIGINT, how long requests and delivery attempts under way may take to finish (default ${defaultShutdownSeconds})`,
  },
  processor: {
    value: '<module>',
    variables: ['CHARGEKIT_PROCESSORS'],
    multiple: true,
    help: 'add the processors a module exports (its default export, or `processors`): a path or a package name resolved from the current directory; repeat for several',
  },
  'log-format': {
    value: '<text|json>',
    variables: ['CHARGEKIT_LOG_FORMAT'],
    help: 'text: readable lines; json: one object a line (time, level, msg, request_id, method, path, status, duration_ms, account…) for a log collector (default text on a terminal, json otherwise)',
  },
  quiet: {
    variables: ['CHARGEKIT_QUIET'],
    help: 'do not log each request and delivery attempt',
  },
} as const satisfies Record<string, Setting>

type SettingName = keyof typeof settings

const settingNames = Object.keys(settings) as SettingName[]

/** Help text column and width: the flags on the left, what they do wrapped on the right. */
const helpColumn = 28
const helpWidth = 80

function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else {
      line = line === '' ? word : `${line} ${word}`
    }
  }
  return [...lines, line]
}

function helpLines(flag: string, setting: Setting): string[] {
  const head = `  --${flag}${setting.value === undefined ? '' : ` ${setting.value}`}`
  const pad = ' '.repeat(helpColumn)
  const lines = [
    ...wrap(setting.help, helpWidth - helpColumn),
    `env ${setting.variables.join(' or ')}`,
  ].map((line) => pad + line)
  const [first = '', ...rest] = lines
  return head.length < helpColumn
    ? [head.padEnd(helpColumn) + first.trimStart(), ...rest]
    : [head, ...lines]
}

export const cliUsage = `Usage: chargekit-sandbox [options]

Runs the chargekit sandbox: a local emulator of the payment lifecycle service.
Every option can also be given by its environment variable; a flag wins over its
variable, and an empty variable counts as unset. A variable of a repeatable
option holds a comma-separated list.

Options:
${settingNames.flatMap((name) => helpLines(name, settings[name])).join('\n')}
  -v, --version             print the version
  -h, --help                show this help

Endpoints that need no credentials, besides the API under /v2 and the
dashboard at /dashboard:
  GET /healthz              200 while the process serves
  GET /readyz               200 once the store is open and timed work runs;
                            503 with the reason while starting or stopping,
                            or when the store does not answer

Signals: SIGTERM or SIGINT stops accepting connections, lets requests and
delivery attempts under way finish (up to --shutdown-timeout), leaves the
work not done in the store for the next start, and exits.

Exit codes: 0 stopped cleanly, 1 failed to start or stop, 2 the command line is wrong.
`

/** The command line itself is wrong: the CLI prints the message and exits with code 2. */
export class UsageError extends SandboxError {
  constructor(message: string) {
    super(`${message}. Run chargekit-sandbox --help for usage.`)
    this.name = 'UsageError'
  }
}

export type LogFormat = 'text' | 'json'

export type CliCommand =
  | { kind: 'help' }
  | { kind: 'version' }
  | {
      kind: 'start'
      options: StartSandboxOptions & { port: number }
      /** The `--processor` modules, loaded by the CLI before it starts the sandbox. */
      processorModules: readonly string[]
      quiet: boolean
      /** Undefined: text on a terminal, JSON otherwise. */
      logFormat: LogFormat | undefined
      shutdownTimeoutMs: number
      /** Where each setting given came from: its flag (`--data`) or variable (`DATABASE_URL`). */
      sources: Partial<Record<SettingName, string>>
    }

export type StartCommand = Extract<CliCommand, { kind: 'start' }>

type Environment = Readonly<Record<string, string | undefined>>

const flagSyntax = {
  ...Object.fromEntries(
    settingNames.map((name) => {
      const setting: Setting = settings[name]
      return [
        name,
        {
          type: setting.value === undefined ? 'boolean' : 'string',
          ...(setting.multiple ? { multiple: true } : {}),
        },
      ]
    }),
  ),
  version: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
} satisfies NonNullable<ParseArgsConfig['options']>

/** A setting's text as a whole number from `min` to `max`. */
function wholeNumber(min: number, max: number) {
  return z
    .string()
    .refine((text) => /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max, {
      error: `expects a whole number from ${min} to ${max}`,
    })
    .transform(Number)
}

/** A setting's text as a number >= 0, such as 1 or 0.5. */
function nonNegative(example: string) {
  return z
    .string()
    .refine((text) => text.trim() !== '' && Number(text) >= 0 && Number.isFinite(Number(text)), {
      error: `expects a number >= 0, such as ${example}`,
    })
    .transform(Number)
}

const accountSetting = z.string().transform((text, context): SandboxAccountOptions => {
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
 * The settings' values as read from flags or variables. Numbers are read from their text here;
 * a setting that passes its text straight to `startSandbox` is checked by that option's own
 * rule, so the CLI reports it by its flag's or variable's name before anything starts.
 */
const settingsSchema = z.object({
  port: wholeNumber(0, 65_535).optional(),
  host: option.host,
  account: z.array(accountSetting).optional(),
  'time-scale': nonNegative('1 or 0.001').optional(),
  'signing-secret': signingSecretText.optional(),
  'no-signing': z.boolean().optional(),
  'allow-http-events-url': z.boolean().optional(),
  'public-url': option.publicUrl,
  'max-connections': wholeNumber(1, 1_000_000).optional(),
  'max-connections-per-address': wholeNumber(1, 1_000_000).optional(),
  'retain-charges': wholeNumber(1, Number.MAX_SAFE_INTEGER).optional(),
  'cors-origin': option.corsOrigins,
  'max-declined-instruments': wholeNumber(1, 1_000_000).optional(),
  data: option.data,
  database: option.database,
  'startup-timeout': nonNegative('30 or 0.5').optional(),
  'shutdown-timeout': nonNegative('10 or 0.5').optional(),
  processor: z.array(z.string()).optional(),
  'log-format': z.enum(['text', 'json'], { error: 'expects text or json' }).optional(),
  quiet: z.boolean().optional(),
} satisfies Record<SettingName, z.ZodType>)

type Settings = z.output<typeof settingsSchema>

/**
 * Reads the command line, then the environment for every setting no flag gave; a bad value is a
 * {@link UsageError} naming its flag or variable and what it takes.
 */
export function parseCliArguments(argv: readonly string[], env: Environment = {}): CliCommand {
  const flags = readFlags(argv)
  if (flags.help === true) return { kind: 'help' }
  if (flags.version === true) return { kind: 'version' }
  if (flags.data !== undefined && flags.database !== undefined) {
    throw new UsageError('--data and --database exclude each other: state lives in one place')
  }
  const { values, sources } = withVariables(flags, env)
  if (values['no-signing'] === true && values['signing-secret'] !== undefined) {
    throw new UsageError(
      `${sources['no-signing']} and ${sources['signing-secret']} exclude each other: deliveries are signed with a secret or not at all`,
    )
  }
  const result = settingsSchema.safeParse(values)
  if (!result.success) throw usageErrorOf(result.error, values, sources)
  return startCommand(result.data, sources)
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

/**
 * The flags, plus what the environment gives for each setting no flag gave, in the flags'
 * shapes. State lives in one place: a `--data` or `--database` flag leaves both variables
 * unread, and a database variable wins over `CHARGEKIT_DATA` (an image that keeps its state in
 * a volume by default is pointed at PostgreSQL with `DATABASE_URL` alone).
 */
function withVariables(
  flags: Record<string, unknown>,
  env: Environment,
): { values: Record<string, unknown>; sources: Partial<Record<SettingName, string>> } {
  const values: Record<string, unknown> = {}
  const sources: Partial<Record<SettingName, string>> = {}
  const stateByFlag = flags.data !== undefined || flags.database !== undefined
  for (const name of settingNames) {
    if (flags[name] !== undefined) {
      values[name] = flags[name]
      sources[name] = `--${name}`
      continue
    }
    if (stateByFlag && (name === 'data' || name === 'database')) continue
    const setting: Setting = settings[name]
    const variable = setting.variables.find((candidate) => (env[candidate] ?? '') !== '')
    if (variable === undefined) continue
    values[name] = fromVariable(variable, env[variable] as string, setting)
    sources[name] = variable
  }
  if (sources.data !== undefined && sources.database !== undefined && !stateByFlag) {
    delete values.data
    delete sources.data
  }
  return { values, sources }
}

function fromVariable(variable: string, text: string, setting: Setting): unknown {
  if (setting.multiple) {
    return text
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '')
  }
  if (setting.value !== undefined) return text.trim()
  const answer = /^(?:(true|1|yes|on)|(false|0|no|off))$/i.exec(text.trim())
  if (answer === null) {
    throw new UsageError(
      `${variable} expects true or false (or 1 or 0); got ${JSON.stringify(text)}`,
    )
  }
  return answer[1] !== undefined
}

function usageErrorOf(
  error: z.ZodError,
  values: Record<string, unknown>,
  sources: Partial<Record<SettingName, string>>,
): UsageError {
  const [issue] = error.issues
  const [name, index] = (issue?.path ?? []) as [SettingName | undefined, number | undefined]
  if (issue === undefined || name === undefined) {
    return new UsageError(issue?.message ?? 'invalid settings')
  }
  const given = values[name]
  const text = index === undefined ? given : (given as unknown[])[index]
  const setting: Setting = settings[name]
  const got = setting.secret ? '' : `; got ${JSON.stringify(text)}`
  const where = sources[name] ?? `--${name}`
  // One bad item of a variable's list is named by its place in the list.
  const item =
    index !== undefined && !where.startsWith('--') ? ` (item ${index + 1} of the list)` : ''
  return new UsageError(`${where}${item} ${issue.message}${got}`)
}

/**
 * What to say when the port the sandbox was to listen on is taken: which, and a free one to use
 * instead, set the way the taken one was (its flag, or the variable it came from).
 */
export function portTakenMessage(command: StartCommand, freePort: number): string {
  const { port, host } = command.options
  const variable =
    command.sources.port?.startsWith('--') === false ? command.sources.port : undefined
  const instead =
    variable === undefined
      ? `start with --port ${freePort} (or set CHARGEKIT_PORT=${freePort})`
      : `set ${variable}=${freePort} (or start with --port ${freePort})`
  return `port ${port} on ${host} is taken: another program listens there (a sandbox already running?). Port ${freePort} is free: ${instead}`
}

function startCommand(values: Settings, sources: Partial<Record<SettingName, string>>): CliCommand {
  const options: StartSandboxOptions & { port: number } = {
    port: values.port ?? defaultCliPort,
    host: values.host ?? '127.0.0.1',
    startupTimeoutMs: (values['startup-timeout'] ?? defaultStartupSeconds) * 1000,
  }
  if (values.account !== undefined) options.accounts = values.account
  if (values['time-scale'] !== undefined) options.timeScale = values['time-scale']
  if (values['signing-secret'] !== undefined) options.signingSecret = values['signing-secret']
  if (values['no-signing'] === true) options.signingSecret = false
  if (values['allow-http-events-url'] === true) options.allowHttpEventsUrl = true
  if (values['public-url'] !== undefined) options.publicUrl = values['public-url']
  if (values['max-connections'] !== undefined) {
    options.connections = { maxConnections: values['max-connections'] }
  }
  if (values['max-connections-per-address'] !== undefined) {
    options.connections = {
      ...options.connections,
      maxConnectionsPerAddress: values['max-connections-per-address'],
    }
  }
  if (values['retain-charges'] !== undefined) options.retainCharges = values['retain-charges']
  if (values['cors-origin'] !== undefined) options.corsOrigins = values['cors-origin']
  if (values['max-declined-instruments'] !== undefined) {
    options.maxDeclinedInstruments = values['max-declined-instruments']
  }
  if (values.data !== undefined) options.data = values.data
  if (values.database !== undefined) options.database = values.database
  return {
    kind: 'start',
    options,
    processorModules: values.processor ?? [],
    quiet: values.quiet === true,
    logFormat: values['log-format'],
    shutdownTimeoutMs: (values['shutdown-timeout'] ?? defaultShutdownSeconds) * 1000,
    sources,
  }
}
