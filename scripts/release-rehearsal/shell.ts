import { type ChildProcess, spawn } from 'node:child_process'

/** Where and with what environment commands run. */
export interface Shell {
  cwd: string
  env: NodeJS.ProcessEnv
}

/** A command that failed, with everything it printed: the rehearsal's report shows it. */
export class CommandError extends Error {
  constructor(command: string, cwd: string, reason: string, output: string) {
    super(`\`${command}\` (in ${cwd}) ${reason}. Its output:\n${output.trimEnd()}`)
    this.name = 'CommandError'
  }
}

/** A command started in the background: a server, a `listen`. */
export interface Started {
  /** What it printed so far, stdout and stderr interleaved. */
  output(): string
  /** Resolves once its output matches `pattern` (with the match), or rejects on exit or timeout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>
  /** Ctrl-C, as a person would stop it; SIGKILL if it is still running 10 s later. */
  stop(): Promise<void>
}

const running = new Set<ChildProcess>()

// Whatever the rehearsal started must not outlive it, however it ends.
process.once('exit', () => {
  for (const child of running) signalGroup(child, 'SIGKILL')
})
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => process.exit(130))
}

/**
 * Runs `command` with `sh -c`, exactly as a person types it (environment assignments, `&&`),
 * and resolves to its output; rejects with the output when it fails or outlives `timeoutMs`.
 */
export async function run(command: string, shell: Shell, timeoutMs = 300_000): Promise<string> {
  const child = launch(command, shell)
  const output = collect(child)
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), timeoutMs)
  const code = await exited(child)
  clearTimeout(timer)
  if (code !== 0) {
    const reason = code === null ? `did not finish within ${timeoutMs / 1000} s` : `exited ${code}`
    throw new CommandError(command, shell.cwd, reason, output.text)
  }
  return output.text
}

/** Starts `command` in the background; stop() ends it and everything it started. */
export function start(command: string, shell: Shell): Started {
  const child = launch(command, shell)
  const output = collect(child)
  const exit = exited(child)
  return {
    output: () => output.text,
    async waitFor(pattern, timeoutMs = 120_000) {
      for (const deadline = Date.now() + timeoutMs; ; ) {
        const match = output.text.match(pattern)
        if (match !== null) return match
        const ended = await Promise.race([
          exit.then(() => 'exited' as const),
          output.next,
          delay(deadline - Date.now()),
        ])
        if (ended === 'exited' && output.text.match(pattern) === null) {
          throw new CommandError(
            command,
            shell.cwd,
            `exited before printing ${pattern}`,
            output.text,
          )
        }
        if (Date.now() >= deadline) {
          throw new CommandError(
            command,
            shell.cwd,
            `did not print ${pattern} within ${timeoutMs / 1000} s`,
            output.text,
          )
        }
      }
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      signalGroup(child, 'SIGINT')
      const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 10_000)
      await exit
      clearTimeout(timer)
    },
  }
}

function launch(command: string, { cwd, env }: Shell): ChildProcess {
  // A process group of its own, so a signal reaches what `npx` started too.
  const child = spawn('sh', ['-c', command], {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  child.once('exit', () => running.delete(child))
  return child
}

function collect(child: ChildProcess) {
  const state = { text: '', next: Promise.resolve(), wake: () => {} }
  const renew = () => {
    state.next = new Promise<void>((resolve) => {
      state.wake = resolve
    })
  }
  renew()
  const append = (chunk: Buffer) => {
    state.text += chunk.toString()
    const wake = state.wake
    renew()
    wake()
  }
  child.stdout?.on('data', append)
  child.stderr?.on('data', append)
  return state
}

/** The exit code, or null when a signal ended it. */
function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('close', (code) => resolve(code))
  })
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal)
  } catch {
    // Already gone.
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(ms, 0)).unref())
}
