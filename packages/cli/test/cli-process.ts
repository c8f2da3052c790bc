import { type ChildProcess, spawn } from 'node:child_process'
import { inject } from 'vitest'
import { runCli as runCommandLine } from '../src/run-cli'
import { createTerminal } from '../src/terminal'

const running: ChildProcess[] = []
const aborts: AbortController[] = []

export interface CliRun {
  /** The exit code once the command ended. */
  exited: Promise<number | null>
  output(): { stdout: string; stderr: string }
  /** Resolves with the first match in stdout or stderr, as the output grows. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<RegExpMatchArray>
  /** What Ctrl-C (SIGINT) or `kill` (SIGTERM) does. */
  stop(signal: 'SIGINT' | 'SIGTERM'): void
}

type Output = { stdout: string; stderr: string }

/** The output of a run as it grows, and waiting for a pattern in it. */
function recorder(exited: Promise<number | null>) {
  const output: Output = { stdout: '', stderr: '' }
  const waiters = new Set<() => void>()
  return {
    output,
    append(stream: keyof Output, text: string) {
      output[stream] += text
      for (const wake of waiters) wake()
    },
    waitFor(stream: keyof Output, pattern: RegExp): Promise<RegExpMatchArray> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = output[stream].match(pattern)
          if (match) {
            waiters.delete(check)
            resolve(match)
          }
        }
        waiters.add(check)
        check()
        exited.then(() => {
          waiters.delete(check)
          reject(
            new Error(`chargekit exited before ${pattern} appeared on ${stream}: ${output.stderr}`),
          )
        })
      })
    },
  }
}

/**
 * Runs `chargekit` (bundled from source by the global setup) in its own process, as npm runs the
 * bin: real argv, real stdout/stderr, real signals. For what only a process shows (signals,
 * pipes, exit codes); {@link startInProcess} runs the same command line without a process.
 * `env` is added to a copy of this process's environment without any CHARGEKIT_ or NO_COLOR
 * variable of the machine running the tests.
 */
export function startCli(args: readonly string[], env: Record<string, string> = {}): CliRun {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(CHARGEKIT_|NO_COLOR$)/.test(name)),
  )
  const child = spawn(process.execPath, [inject('chargekitCli'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...inherited, ...env },
  })
  running.push(child)
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  const record = recorder(exited)
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]?.on('data', (chunk: Buffer) => record.append(stream, chunk.toString()))
  }
  return {
    exited,
    output: () => ({ ...record.output }),
    waitFor: record.waitFor,
    stop: (signal) => child.kill(signal),
  }
}

/**
 * Runs a `chargekit` command line in this process, as the bin does (the same command runner),
 * writing to recorded, non-terminal stdout and stderr and with only `env` as its environment. A
 * stop aborts the command as the bin's signal handlers do. Dozens of runs cost what one process
 * start does.
 */
export function startInProcess(args: readonly string[], env: Record<string, string> = {}): CliRun {
  const abort = new AbortController()
  aborts.push(abort)
  let exit: (code: number) => void = () => {}
  const exited = new Promise<number>((resolve) => {
    exit = resolve
  })
  const record = recorder(exited)
  const terminal = createTerminal({
    stdout: { write: (text: string) => record.append('stdout', text) },
    stderr: { write: (text: string) => record.append('stderr', text) },
    env,
  })
  runCommandLine(args, { terminal, env, signal: abort.signal }).then(exit)
  return {
    exited,
    output: () => ({ ...record.output }),
    waitFor: record.waitFor,
    stop: (signal) => abort.abort(signal),
  }
}

/** Runs a `chargekit` command line in this process to its end. */
export async function runInProcess(args: readonly string[], env: Record<string, string> = {}) {
  const run = startInProcess(args, env)
  const code = await run.exited
  return { code, ...run.output() }
}

/** Runs `chargekit` in its own process to its end. */
export async function runCli(args: readonly string[], env: Record<string, string> = {}) {
  const run = startCli(args, env)
  const code = await run.exited
  return { code, ...run.output() }
}

/** For afterEach: no command outlives its test. */
export function stopRunningClis() {
  for (const child of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
  for (const abort of aborts.splice(0)) abort.abort('SIGTERM')
}
