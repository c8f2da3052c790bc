#!/usr/bin/env node
import { cliUsage, parseCliArguments, UsageError } from './cli-options'
import { SandboxError } from './errors'
import { consoleLogger, quietLogger } from './logger'

/** `chargekit-sandbox`: starts the sandbox, prints where and as whom to call it, stops on a signal. */
async function main(argv: readonly string[]): Promise<number> {
  const command = parseCliArguments(argv)
  if (command.kind === 'help') {
    process.stdout.write(cliUsage)
    return 0
  }
  // Loaded only to start one: help and a wrong command line are answered without the sandbox.
  const [{ loadProcessors }, { startSandbox }] = await Promise.all([
    import('./load-processors'),
    import('./start-sandbox'),
  ])
  const processors = await loadProcessors(command.processorModules, process.cwd())
  const sandbox = await startSandbox({
    ...command.options,
    processors,
    logger: command.quiet ? quietLogger : consoleLogger,
  })
  // Listen for the signals before the banner: whoever reads the banner may stop us at once.
  const stopped = new Promise<number>((resolve) => {
    let stopping = false
    const stop = (reason: NodeJS.Signals | 'EPIPE') => {
      if (stopping) return
      stopping = true
      // A reader that went away (`chargekit-sandbox | head -1`) stops us as SIGPIPE would, with
      // nothing more written to it.
      if (reason !== 'EPIPE') process.stdout.write(`\nReceived ${reason}, stopping the sandbox…\n`)
      sandbox.close().then(
        () => resolve(0),
        (error: unknown) => {
          if (reason !== 'EPIPE') {
            process.stderr.write(`chargekit-sandbox: error while stopping: ${String(error)}\n`)
          }
          resolve(1)
        },
      )
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    for (const stream of [process.stdout, process.stderr]) {
      stream.on('error', (error: NodeJS.ErrnoException) => {
        // After the first EPIPE the stream is destroyed: later writes fail with the second code.
        if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error
        stop('EPIPE')
      })
    }
  })
  const lines = [
    `chargekit sandbox listening on ${sandbox.url}`,
    `  API base URL: ${sandbox.apiUrl}`,
    `  Dashboard:    ${sandbox.url}/dashboard`,
    `  State:        ${sandbox.storage}`,
    ...processors.map(
      (processor) =>
        `  Processor:    ${processor.name} (${processor.chargeTypes.map((type) => (typeof type === 'string' ? type : type.id)).join(', ')})`,
    ),
    '  Credentials: account id / private key (HTTP Basic user / password, on your server)',
    '               public key (HTTP Basic user, empty password, in the browser)',
    ...sandbox.accounts.map(
      (account) => `    ${account.id} / ${account.privateKey}   public key ${account.publicKey}`,
    ),
    'Press Ctrl-C to stop.',
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
  return stopped
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    const message = error instanceof SandboxError ? error.message : String(error)
    process.stderr.write(`chargekit-sandbox: ${message}\n`)
    process.exitCode = error instanceof UsageError ? 2 : 1
  },
)
