import { type ChildProcess, spawn } from 'node:child_process'
import { inject } from 'vitest'

const running: ChildProcess[] = []

export interface CliRun {
  child: ChildProcess
  /** The exit code once the process ended. */
  exited: Promise<number | null>
  output(): { stdout: string; stderr: string }
  /** Resolves with the first match in stdout or stderr, as the output grows. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<RegExpMatchArray>
}

/**
 * Runs `chargekit` (bundled from source by the global setup) in its own process, as npm runs the
 * bin: real argv, real stdout/stderr, real signals. `env` is added to a copy of this process's environment without
 * any CHARGEKIT_ or NO_COLOR variable of the machine running the tests.
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
  const output = { stdout: '', stderr: '' }
  const waiters = new Set<() => void>()
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]?.on('data', (chunk: Buffer) => {
      output[stream] += chunk.toString()
      for (const wake of waiters) wake()
    })
  }
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  return {
    child,
    exited,
    output: () => ({ ...output }),
    waitFor(stream, pattern) {
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

/** Runs `chargekit` to its end. */
export async function runCli(args: readonly string[], env: Record<string, string> = {}) {
  const run = startCli(args, env)
  const code = await run.exited
  return { code, ...run.output() }
}

/** For afterEach: no CLI outlives its test. */
export function killRunningClis() {
  for (const child of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
}

/** An approved test card, for tests that seed a flow through the client. */
export const testCard = {
  name: 'Ada Lovelace',
  number: '4242424242424242',
  expiration_month: 12,
  expiration_year: new Date().getUTCFullYear() + 3,
  cvc: '123',
}
