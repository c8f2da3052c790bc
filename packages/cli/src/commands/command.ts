import type { Terminal } from '../terminal'

/** What every command runs with. */
export interface CommandContext {
  terminal: Terminal
  env: Readonly<Record<string, string | undefined>>
  /** Aborted on SIGINT or SIGTERM: long-running commands stop cleanly. */
  signal: AbortSignal
}
