#!/usr/bin/env node
import { runCli } from './run-cli'
import { createTerminal } from './terminal'

/**
 * `chargekit`: the process around {@link runCli}. A reader that goes away (`chargekit events
 * list | head -1`) ends the command quietly instead of crashing on EPIPE; SIGINT and SIGTERM
 * abort what runs, so `listen` stops cleanly.
 */
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
    process.exit(process.exitCode ?? 0)
  })
}

const stop = new AbortController()
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => stop.abort(signal))
}

const terminal = createTerminal({
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
})
process.exitCode = await runCli(process.argv.slice(2), {
  terminal,
  env: process.env,
  signal: stop.signal,
})
