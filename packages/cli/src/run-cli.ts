import { ChargekitError } from '@chargekit/client'
import type { CommandContext } from './commands/command'
import { eventsCommand } from './commands/events-command'
import { listenCommand } from './commands/listen-command'
import { triggerCommand } from './commands/trigger-command'
import { sandboxDefaults } from './connection'
import { didYouMean } from './did-you-mean'
import { CliError, exitCodes, UsageError } from './errors'
import { describeServiceError } from './service-errors'
import { VERSION } from './version'

const commands = {
  trigger: triggerCommand,
  listen: listenCommand,
  events: eventsCommand,
} satisfies Record<string, (argv: readonly string[], context: CommandContext) => Promise<void>>

const usage = `Usage: chargekit <command> [options]

The command line of the payment lifecycle service: fire events, receive them on your machine,
search and resend them. Works against the local sandbox (npx @chargekit/sandbox) by default and
against any deployment of the service with --base-url and credentials.

Commands:
  trigger <event-type>...  run the smallest flow that emits each event type
  trigger --error <code>   run the test-amount flow for an error code (--at <element>)
  listen                   follow new events; --forward-to <url> POSTs them to your server
  events list              search events (type, charge, created time, …)
  events get <id>          one event in full
  events resend <id>       deliver an event again now
  events dismiss <id>      mark an event dismissed

Options:
  -h, --help               show help (also: chargekit <command> --help)
  -v, --version            print the version

Environment:
  CHARGEKIT_BASE_URL       the service (default ${sandboxDefaults.baseUrl}, the sandbox)
  CHARGEKIT_ACCOUNT_ID     the account id (default ${sandboxDefaults.accountId})
  CHARGEKIT_PRIVATE_KEY    the private key (default ${sandboxDefaults.privateKey})
  NO_COLOR                 no colours, even on a terminal

Exit codes: 0 done, 1 failed (the service refused or could not be reached, a flow did not
emit its event in time), 2 the command line is wrong.

Examples:
  chargekit trigger payment.success
  chargekit listen --forward-to http://localhost:3000/webhooks
  chargekit events list --type payment.success --limit 5
`

/** Runs one command line; resolves to the process's exit code and never throws. */
export async function runCli(argv: readonly string[], context: CommandContext): Promise<number> {
  const [first, ...rest] = argv
  try {
    if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
      context.terminal.line(usage)
      return exitCodes.ok
    }
    if (first === '--version' || first === '-v') {
      context.terminal.line(VERSION)
      return exitCodes.ok
    }
    const run = Object.hasOwn(commands, first)
      ? commands[first as keyof typeof commands]
      : undefined
    if (run === undefined) {
      throw new UsageError(
        first.startsWith('-')
          ? `unknown flag ${first}${didYouMean(first, ['--help', '--version']) || ": a command's flags go after it, as in chargekit events list --json"}`
          : `unknown command "${first}"${didYouMean(first, Object.keys(commands))}`,
      )
    }
    await run(rest, context)
    return exitCodes.ok
  } catch (error) {
    return report(error, context)
  }
}

function report(error: unknown, { terminal }: CommandContext): number {
  const { style } = terminal
  if (error instanceof UsageError) {
    const help =
      error.command === undefined ? 'chargekit --help' : `chargekit ${error.command} --help`
    terminal.note(
      `${style.red('chargekit:')} ${error.message}. Run ${help} for ${error.helpShows}.`,
    )
    return exitCodes.usage
  }
  if (error instanceof CliError) {
    terminal.note(`${style.red('chargekit:')} ${error.message}`)
    return exitCodes.failure
  }
  if (error instanceof ChargekitError) {
    const { message, next } = describeServiceError(error)
    terminal.note(`${style.red('chargekit:')} ${message}.`)
    if (next !== undefined) terminal.note(next)
    return exitCodes.failure
  }
  // A bug: the stack helps whoever reports it.
  terminal.note(
    `chargekit: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  )
  return exitCodes.failure
}
