/** A failure the CLI explains in one line and ends with exit code 1: no stack trace. */
export class CliError extends Error {
  override name = 'CliError'
}

/**
 * The command line itself is wrong (an unknown flag, a missing argument, a malformed value):
 * exit code 2, with the command whose `--help` shows the right usage.
 */
export class UsageError extends CliError {
  override name = 'UsageError'
  /** The command the message is about (`events list`), or undefined for `chargekit` itself. */
  readonly command: string | undefined
  /** What that command's `--help` shows that helps here: "usage", or "the event types". */
  readonly helpShows: string

  constructor(message: string, command?: string, helpShows = 'usage') {
    super(message)
    this.command = command
    this.helpShows = helpShows
  }
}

/** The exit codes, as the README documents them. */
export const exitCodes = { ok: 0, failure: 1, usage: 2 } as const
