/** `12.3 s`, or `4 min 12 s` from a minute on. */
export function formatElapsed(seconds: number): string

export interface Step {
  /** What the step's line says. */
  name: string
  command: string
  args?: readonly string[]
  env?: NodeJS.ProcessEnv
  cwd?: string
  /** Lines of the output to show under a step that passed, such as a test run's summary. */
  keep?: RegExp
  /** The log file's name without `.log`, when `name` is not unique. */
  logName?: string
  /** Runs the step once more when V8 aborted its process on an internal check. */
  rerunAfterV8Crash?: boolean
}

export interface StepResult {
  ok: boolean
  code: number
  seconds: number
  /** The step's log file. */
  log: string
}

export interface StepRunner {
  heading(text: string): void
  note(text: string): void
  run(step: Step): Promise<StepResult>
}

export function createStepRunner(options: {
  logDir: string
  out?: { write(text: string): unknown; isTTY?: boolean }
  live?: boolean
}): StepRunner
