#!/usr/bin/env node
import {
  cliUsage,
  type LogFormat,
  parseCliArguments,
  portTakenMessage,
  type StartCommand,
  UsageError,
} from './cli-options'
import { SandboxError } from './errors'
import { consoleLogger, jsonLine, jsonLogger, quietLogger, type SandboxLogger } from './logger'
import { freePortNear, isPortTaken } from './port-in-use'
import type { Processor } from './processors/processor'
import type { Sandbox } from './start-sandbox'
import { VERSION } from './version'

type StopReason = NodeJS.Signals | 'EPIPE'

/**
 * `chargekit-sandbox`: starts the sandbox, prints where and as whom to call it, and on SIGTERM or
 * SIGINT drains and stops. Settings come from flags, else from `CHARGEKIT_*` variables.
 */
async function main(argv: readonly string[]): Promise<number> {
  const command = parseCliArguments(argv, process.env)
  if (command.kind === 'help') {
    process.stdout.write(cliUsage)
    return 0
  }
  if (command.kind === 'version') {
    process.stdout.write(`${VERSION}\n`)
    return 0
  }
  const output = createOutput(command.logFormat ?? (process.stdout.isTTY ? 'text' : 'json'))
  try {
    return await serve(command, output)
  } catch (error) {
    if (isPortTaken(error)) {
      const { host, port } = command.options
      output.problem(portTakenMessage(command, await freePortNear(host ?? '127.0.0.1', port)))
    } else {
      output.problem(error instanceof SandboxError ? error.message : String(error))
    }
    return 1
  }
}

async function serve(command: StartCommand, output: Output): Promise<number> {
  // Listened to before anything starts: a stop during start-up (a database still coming up)
  // ends the wait instead of killing the process half-way.
  let requestStop: (reason: StopReason) => void = () => {}
  const stopRequested = new Promise<StopReason>((resolve) => {
    requestStop = resolve
  })
  process.once('SIGINT', requestStop)
  process.once('SIGTERM', requestStop)
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      // After the first EPIPE the stream is destroyed: later writes fail with the second code.
      if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error
      // A reader that went away (`chargekit-sandbox | head -1`) stops us as SIGPIPE would.
      requestStop('EPIPE')
    })
  }

  // Loaded only to start one: help and a wrong command line are answered without the sandbox.
  const [{ loadProcessors }, { startSandbox }] = await Promise.all([
    import('./load-processors'),
    import('./start-sandbox'),
  ])
  const processors = await loadProcessors(command.processorModules, process.cwd())
  const startup = new AbortController()
  const starting = startSandbox({
    ...command.options,
    processors,
    logger: command.quiet ? output.quietLogger : output.logger,
    signal: startup.signal,
  })
  const first = await Promise.race([
    starting.then((sandbox) => ({ sandbox })),
    stopRequested.then((reason) => ({ reason })),
  ])
  if ('reason' in first) {
    startup.abort()
    // A start past the point where it can be aborted completes; it is stopped at once.
    const sandbox = await starting.catch(() => undefined)
    await sandbox?.close()
    return 0
  }
  const { sandbox } = first
  output.started(sandbox, processors, command)

  const reason = await stopRequested
  // Nothing more is written to a reader that went away.
  if (reason !== 'EPIPE') output.stopping(reason, command.shutdownTimeoutMs)
  // close() is bounded by the shutdown timeout; this only ends a stop that hangs elsewhere.
  setTimeout(() => {
    if (reason !== 'EPIPE') output.problem('did not stop in time; exiting')
    process.exit(1)
  }, command.shutdownTimeoutMs + 5_000).unref()
  try {
    await sandbox.close({ timeoutMs: command.shutdownTimeoutMs })
    return 0
  } catch (error) {
    if (reason !== 'EPIPE') output.problem(`error while stopping: ${String(error)}`)
    return 1
  }
}

interface Output {
  logger: SandboxLogger
  /** The logger of `--quiet`: warnings and errors only. */
  quietLogger: SandboxLogger
  started(sandbox: Sandbox, processors: readonly Processor[], command: StartCommand): void
  stopping(signal: NodeJS.Signals, timeoutMs: number): void
  problem(message: string): void
}

function createOutput(format: LogFormat): Output {
  return format === 'json' ? jsonOutput : textOutput
}

const chargeTypesOf = (processor: Processor) =>
  processor.chargeTypes.map((type) => (typeof type === 'string' ? type : type.id))

/** What the person who started it reads: the banner with the credentials to use. */
const textOutput: Output = {
  logger: consoleLogger,
  quietLogger,
  started(sandbox, processors, { sources }) {
    // A key given in a variable is a secret of the deployment: it stays out of the output.
    const keysFrom = sources.account?.startsWith('--') === false ? sources.account : undefined
    const secretFrom =
      sources['signing-secret']?.startsWith('--') === false ? sources['signing-secret'] : undefined
    const stateFrom = sources.data ?? sources.database
    const lines = [
      `chargekit sandbox listening on ${sandbox.url}`,
      `  API base URL: ${sandbox.apiUrl}`,
      `  Dashboard:    ${sandbox.url}/dashboard`,
      `  Reference:    ${sandbox.url}/docs (OpenAPI: ${sandbox.url}/openapi.json)`,
      `  Health:       ${sandbox.url}/healthz, ${sandbox.url}/readyz`,
      `  State:        ${sandbox.storage}${stateFrom?.startsWith('--') === false ? ` (from ${stateFrom})` : ''}`,
      ...processors.map(
        (processor) => `  Processor:    ${processor.name} (${chargeTypesOf(processor).join(', ')})`,
      ),
      '  Credentials: account id / private key (HTTP Basic user / password, on your server)',
      '               public key (HTTP Basic user, empty password, in the browser)',
      ...sandbox.accounts.map(
        (account) =>
          `    ${account.id} / ${keysFrom === undefined ? account.privateKey : `(the key in ${keysFrom})`}   public key ${account.publicKey}`,
      ),
      ...signingLines(sandbox, secretFrom),
      'Press Ctrl-C to stop.',
    ]
    process.stdout.write(`${lines.join('\n')}\n`)
  },
  stopping(signal) {
    process.stdout.write(`\nReceived ${signal}, stopping the sandbox…\n`)
  },
  problem(message) {
    process.stderr.write(`chargekit-sandbox: ${message}\n`)
  },
}

/**
 * The signing secrets, as `stripe listen` prints its `whsec_`: what the receiver at each
 * `events_url` checks deliveries with. One given in a variable is the deployment's and stays
 * out of the output, as keys do.
 */
function signingLines(sandbox: Sandbox, secretFrom: string | undefined): string[] {
  if (sandbox.accounts.every((account) => account.signingSecret === undefined)) {
    return [
      '  Signing:     off (--no-signing): deliveries go unsigned, as the production service sends them',
    ]
  }
  return [
    "  Signing secrets (Standard Webhooks): give your receiver its account's, to check deliveries",
    ...sandbox.accounts.map(
      (account) =>
        `    ${account.id}   ${secretFrom === undefined ? account.signingSecret : `(the secret in ${secretFrom})`}`,
    ),
  ]
}

/**
 * One JSON object a line, every line: no private key and no signing secret, since logs are
 * collected and kept (`GET /v2/test/signing_secret` answers the secret to the account).
 */
const jsonOutput: Output = {
  logger: jsonLogger,
  quietLogger: { ...jsonLogger, info: () => {} },
  started(sandbox, processors) {
    process.stdout.write(
      jsonLine('info', `chargekit sandbox listening on ${sandbox.url}`, {
        version: VERSION,
        url: sandbox.url,
        api_url: sandbox.apiUrl,
        dashboard_url: `${sandbox.url}/dashboard`,
        state: sandbox.storage,
        processors: processors.map((processor) => ({
          name: processor.name,
          charge_types: chargeTypesOf(processor),
        })),
        accounts: sandbox.accounts.map((account) => ({
          id: account.id,
          public_key: account.publicKey,
          signed_deliveries: account.signingSecret !== undefined,
        })),
      }),
    )
  },
  stopping(signal, timeoutMs) {
    process.stdout.write(
      jsonLine('info', `received ${signal}, stopping the sandbox`, {
        signal,
        shutdown_timeout_ms: timeoutMs,
      }),
    )
  },
  problem(message) {
    process.stderr.write(jsonLine('error', message))
  },
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    // The command line itself was wrong: before any output format applies.
    const message = error instanceof SandboxError ? error.message : String(error)
    process.stderr.write(`chargekit-sandbox: ${message}\n`)
    process.exitCode = error instanceof UsageError ? 2 : 1
  },
)
