import { type ChargekitClient, type Event, NotFoundError } from '@chargekit/client'
import * as z from 'zod'
import {
  commonOptions,
  connectionFlags,
  connectionOptions,
  expectPositionals,
  parseCommandLine,
} from '../command-line'
import { connect } from '../connection'
import {
  eventTypeFlag,
  httpUrlFlag,
  secondsFlag,
  signingSecretFlag,
  timestampFlag,
  wholeNumberFlag,
} from '../flags'
import { connectionHelp } from '../formats'
import { followEvents } from '../listen/event-follower'
import { type ForwardResult, forwardEvent } from '../listen/forward-event'
import type { Terminal } from '../terminal'
import type { CommandContext } from './command'

const command = 'listen'

const options = {
  ...connectionOptions,
  ...commonOptions,
  'forward-to': { type: 'string' },
  secret: { type: 'string' },
  since: { type: 'string' },
  type: { type: 'string', multiple: true },
  'poll-interval': { type: 'string' },
  'forward-timeout': { type: 'string' },
} as const

const flagsSchema = z
  .object({
    ...connectionFlags,
    'forward-to': httpUrlFlag.optional(),
    secret: signingSecretFlag.optional(),
    since: timestampFlag.optional(),
    type: z.array(eventTypeFlag).optional(),
    'poll-interval': wholeNumberFlag(10, 3_600_000).default(1000),
    'forward-timeout': secondsFlag.default(10_000),
  })
  .refine((flags) => flags.secret === undefined || flags['forward-to'] !== undefined, {
    error: '--secret signs forwarded events: give --forward-to too',
  })

const listenHelp = `Usage: chargekit listen [--forward-to <url>] [options]

Follows the account's new events (no public URL needed) and prints one line per event: from
a sandbox through its event stream, each the moment it happens, resuming after a dropped
connection with none lost or repeated; from a service without the stream by searching its
events every --poll-interval. With --forward-to, POSTs each one to your local server exactly
as the service delivers it: the compact event as the JSON body, ?event=<id>&event_type=<type>
on the URL, and Standard Webhooks signature headers. A sandbox's own signing secret signs them
(printed at start: give it to your receiver), unless --secret names another. Each line shows
the event's time, type and id, your server's status, the duration, and why it failed
(ECONNREFUSED, timeout, or a non-2xx status with its body's first line).

Options:
  --forward-to <url>     your server's webhook endpoint, e.g. http://localhost:3000/webhooks
  --secret <secret>      sign forwarded events with this secret (whsec_<base64>, or any
                         string as raw key); default: the sandbox's own, unsigned elsewhere
  --since <time>         start from events created at or after this ISO 8601 time (resume
                         after a restart: the time printed when listen stopped); default now
  --type <event-type>    only these types; repeat for several
  --poll-interval <ms>   without an event stream: how often to search for new events
                         (default 1000)
  --forward-timeout <s>  a forward not answered within this long fails (default 10)
${connectionHelp.replace('one JSON document', 'one JSON object per line (JSON Lines)')}
Stops on Ctrl-C (SIGINT) or SIGTERM.

Examples:
  chargekit listen --forward-to http://localhost:3000/webhooks
  chargekit listen --forward-to http://localhost:3000/webhooks --secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
  chargekit listen --type payment.success --type payment.error
  chargekit listen --since 2026-01-31T12:00:00.000Z --forward-to http://localhost:3000/webhooks
`

export async function listenCommand(argv: readonly string[], context: CommandContext) {
  const { terminal, signal } = context
  const parsed = parseCommandLine(command, argv, options, flagsSchema)
  if (parsed === undefined) return terminal.line(listenHelp)
  const { flags, positionals } = parsed
  expectPositionals(command, positionals, [])
  const { 'forward-to': forwardTo, since, type: types } = flags
  const { client, baseUrl, accountId } = connect(command, flags, context.env)
  // A sandbox signs its deliveries: forwards are signed with the same secret, so the receiver
  // checks both with one. The production service has no such endpoint, and --secret wins.
  const sandboxSecret =
    flags.secret === undefined && forwardTo !== undefined
      ? await signingSecretOf(client, signal)
      : undefined
  const forwardSecret = flags.secret ?? sandboxSecret
  if (sandboxSecret !== undefined) {
    terminal.note(
      `Your signing secret is ${sandboxSecret}: the sandbox signs its deliveries with it, and forwards are signed with it too (Standard Webhooks). Give it to your receiver.`,
    )
  }

  const events = followEvents(client, {
    since,
    types,
    pollIntervalMs: flags['poll-interval'],
    signal,
    onRetry: (error) =>
      terminal.note(
        terminal.style.yellow(`Could not follow events (${(error as Error).message}); retrying.`),
      ),
    onReady: (how) =>
      terminal.note(
        `Ready: following the events of ${accountId} at ${baseUrl} from ${since ?? 'now'}` +
          `${how === 'push' ? ' as they happen (event stream)' : ` by searching every ${flags['poll-interval']} ms`}` +
          `${forwardTo === undefined ? '' : `, forwarding to ${forwardTo}${forwardSecret === undefined ? '' : ' (signed)'}`}. Ctrl-C to stop.`,
      ),
    onRestart: (lastEventId) =>
      terminal.note(
        terminal.style.yellow(
          `The service no longer has event ${lastEventId} (a sandbox restarted without its state?): following new events from now.`,
        ),
      ),
  })
  let last: Event | undefined
  for await (const event of events) {
    last = event
    const result =
      forwardTo === undefined
        ? undefined
        : await forwardEvent(event, {
            url: forwardTo,
            secret: forwardSecret,
            timeoutMs: flags['forward-timeout'],
            signal,
          })
    if (signal.aborted) break
    if (flags.json) printJsonLine(terminal, event, result)
    else printLine(terminal, event, result)
  }
  const resumeFrom = last?.created_at ?? since
  terminal.note(
    resumeFrom === undefined
      ? 'Stopped.'
      : `Stopped. Resume with: chargekit listen --since ${resumeFrom}${forwardTo === undefined ? '' : ` --forward-to ${forwardTo}`}`,
  )
}

function printLine(terminal: Terminal, event: Event, result: ForwardResult | undefined) {
  const { style } = terminal
  const head = `${style.dim(event.created_at)}  ${event.type.padEnd(21)}  ${event.id}`
  if (result === undefined) return terminal.line(`${head}  ${event.object_id}`)
  const ok = result.failure === undefined
  const status = `[${result.status ?? 'ERR'}]`
  terminal.line(
    `${head}  ${ok ? style.green(status) : style.red(status)} ${String(result.durationMs).padStart(5)} ms` +
      `${ok ? '' : `  ${style.red(result.failure ?? '')}`}`,
  )
}

/** One JSON object per line (JSON Lines): a stream, so scripts can read each event as it comes. */
function printJsonLine(terminal: Terminal, event: Event, result: ForwardResult | undefined) {
  terminal.line(
    JSON.stringify({
      id: event.id,
      type: event.type,
      created_at: event.created_at,
      object_id: event.object_id,
      charge: event.charge?.id ?? null,
      ...(result === undefined
        ? {}
        : {
            status: result.status ?? null,
            duration_ms: result.durationMs,
            failure: result.failure ?? null,
          }),
    }),
  )
}

/**
 * The secret a sandbox signs this account's deliveries with; undefined from a service that
 * signs none or has no such endpoint (the production service answers 404).
 */
async function signingSecretOf(
  client: ChargekitClient,
  signal: AbortSignal,
): Promise<string | undefined> {
  try {
    const { signing_secret } = await client.testHelpers.signingSecret({ signal })
    return signing_secret ?? undefined
  } catch (error) {
    if (error instanceof NotFoundError) return undefined
    throw error
  }
}
