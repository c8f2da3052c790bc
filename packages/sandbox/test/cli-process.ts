import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { inject } from 'vitest'
import { authorization } from '../src/testing/index'
import type { FreshState } from './store-under-test'

const packageDir = fileURLToPath(new URL('..', import.meta.url))
const running: ChildProcess[] = []

export type CliProcess = ReturnType<typeof cli>

/** Variables the CLI reads: a test gives them itself, never from the machine it runs on. */
const settingVariable = /^(CHARGEKIT_|PORT$|DATABASE_URL$)/

/**
 * Runs `chargekit-sandbox` (bundled from source by the global setup) in its own process, from
 * the package's folder, with the environment `env` adds to the test's own.
 */
export function cli(args: string[], env: Record<string, string> = {}) {
  const inherited = Object.entries(process.env).filter(([name]) => !settingVariable.test(name))
  // The embedded database is WebAssembly that V8 would recompile optimized in the background:
  // for a process that lives a few seconds that costs twice the CPU it saves.
  const child = spawn(process.execPath, ['--liftoff-only', inject('sandboxCli'), ...args], {
    cwd: packageDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...Object.fromEntries(inherited), ...env },
  })
  running.push(child)
  let stdout = ''
  let stderr = ''
  // Wakes whoever waits for output, at each chunk and when the process is done.
  const waiting = new Set<() => void>()
  const changed = () => {
    for (const wake of waiting) wake()
    waiting.clear()
  }
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
    changed()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  // 'close', not 'exit': by then the output is read to its end.
  let closed = false
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      closed = true
      changed()
      resolve(code)
    }),
  )
  return {
    child,
    exited,
    output: () => ({ stdout, stderr }),
    async waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
      for (;;) {
        const match = stdout.match(pattern)
        if (match) return match
        if (closed) throw new Error(`CLI exited early: ${stderr}`)
        await new Promise<void>((resolve) => waiting.add(resolve))
      }
    },
  }
}

/** For afterEach (afterAll where tests run at once): no CLI outlives its test. */
export function killRunningClis() {
  for (const child of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
}

/** The flags that start the CLI on `state`: its data folder or its database. */
export function stateFlags({ options: { data, database } }: FreshState): string[] {
  if (data !== undefined) return ['--data', data]
  if (database !== undefined) return ['--database', database]
  throw new Error('The CLI keeps state in a data folder or a database, not in a memory store')
}

/** A CLI on a free port, once it listens, with its API's URL (`…/v2`). */
export async function startedCli(args: string[]): Promise<{ run: CliProcess; api: string }> {
  const run = cli(['--port', '0', '--quiet', '--log-format', 'text', ...args])
  const [, url] = await run.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/)
  return { run, api: `${url}/v2` }
}

/** What a keyed POST to a CLI got: its status, whether it was a replay, its body. */
export interface KeyedAnswer {
  status: number
  replayed: boolean
  body: Record<string, unknown>
}

const defaultAccount = authorization('acct_sandbox', 'sk_sandbox')

/**
 * A POST with an Idempotency-Key, as the CLI's default account; undefined when the connection
 * died before an answer (the process was killed).
 */
export async function postKeyed(
  api: string,
  { path, body, key }: { path: string; body: unknown; key: string },
): Promise<KeyedAnswer | undefined> {
  try {
    const response = await fetch(`${api}${path}`, {
      method: 'POST',
      headers: {
        authorization: defaultAccount,
        'content-type': 'application/json',
        'idempotency-key': key,
      },
      body: JSON.stringify(body),
    })
    return {
      status: response.status,
      replayed: response.headers.get('idempotent-replayed') === 'true',
      body: (await response.json()) as Record<string, unknown>,
    }
  } catch {
    return undefined
  }
}
