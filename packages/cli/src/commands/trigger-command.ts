import { type TestElement, testElements } from '@chargekit/errors'
import { type EventType, eventTypeList, isEventType } from '@chargekit/schemas'
import * as z from 'zod'
import {
  commonOptions,
  connectionFlags,
  connectionOptions,
  parseCommandLine,
} from '../command-line'
import { connect } from '../connection'
import { eventTypeHint } from '../did-you-mean'
import { CliError, UsageError } from '../errors'
import { choiceFlag, errorCodeFlag, keyValueFlag, secondsFlag } from '../flags'
import {
  connectionHelp,
  describeObject,
  eventRows,
  eventTableHeader,
  objectTableHeader,
} from '../formats'
import type { Terminal } from '../terminal'
import { formatTable } from '../terminal'
import { declineRecipe, eventOfDecline, type Recipe, recipes } from '../trigger/recipes'
import { runTrigger, type TriggerResult } from '../trigger/run-trigger'
import type { CommandContext } from './command'

const command = 'trigger'

/**
 * Accepted by the sandbox and by the service (https), and never resolved (`.invalid` is reserved):
 * deliveries to it fail quietly, which is fine while `chargekit listen` forwards the events.
 */
const placeholderEventsUrl = 'https://events.invalid/chargekit'

const options = {
  ...connectionOptions,
  ...commonOptions,
  error: { type: 'string' },
  at: { type: 'string' },
  'events-url': { type: 'string' },
  metadata: { type: 'string', multiple: true },
  timeout: { type: 'string' },
} as const

const flagsSchema = z
  .object({
    ...connectionFlags,
    error: errorCodeFlag.optional(),
    at: choiceFlag(testElements).optional(),
    'events-url': z.string().optional(),
    metadata: keyValueFlag.default({}),
    timeout: secondsFlag.default(30_000),
  })
  .refine((flags) => flags.at === undefined || flags.error !== undefined, {
    error: '--at goes with --error <code>',
  })

const triggerHelp = `Usage: chargekit trigger <event-type>... [options]
       chargekit trigger --error <code> [--at <element>] [options]

Runs the smallest flow that emits each event type, through the service's public API, then
prints the objects it created and the events that followed.

Event types and their flows:
${eventTypeList.map((type) => `  ${type.padEnd(22)} ${recipes[type].summary}`).join('\n')}

The settled and dispute flows use the sandbox's test helpers, and the pending ones its
card_onetime_simulated_acquirer channel: against a real deployment only the others run.

Options:
  --error <code>         run the test-amount flow for any catalogue code instead, e.g. 06.02.0000
  --at <element>         the element that fails with --error: ${testElements.join(', ')}
                         (default instrument)
  --events-url <url>     the charge's events_url: where the service delivers the events
                         (default ${placeholderEventsUrl}, which receives nothing;
                         use chargekit listen --forward-to to get them locally)
  --metadata <key=value> charge metadata; repeat for several
  --timeout <seconds>    how long to wait for the expected event (default 30)
${connectionHelp}
Examples:
  chargekit trigger payment.success
  chargekit trigger refund.success dispute.created --json
  chargekit trigger --error 06.02.0000 --at instrument
  chargekit trigger instrument.authorized --events-url https://shop.example/webhooks --metadata order=1042
`

export async function triggerCommand(argv: readonly string[], context: CommandContext) {
  const parsed = parseCommandLine(command, argv, options, flagsSchema)
  if (parsed === undefined) return context.terminal.line(triggerHelp)
  const { flags, positionals } = parsed
  const targets = targetsOf(positionals, flags.error, flags.at)
  const { client } = connect(command, flags, context.env)
  const settings = {
    eventsUrl: flags['events-url'] ?? placeholderEventsUrl,
    timeoutMs: flags.timeout,
    signal: context.signal,
  }
  const results: TriggerResult[] = []
  for (const { expected, recipe } of targets) {
    if (context.signal.aborted) throw new CliError(`stopped by ${String(context.signal.reason)}`)
    const metadata = { chargekit_trigger: expected, ...flags.metadata }
    const result = await runTrigger(client, expected, recipe, { ...settings, metadata })
    if (!flags.json) printResult(context.terminal, result, recipe)
    results.push(result)
  }
  if (flags.json) context.terminal.json({ flows: results })
}

function targetsOf(
  positionals: readonly string[],
  code: string | undefined,
  at: TestElement | undefined,
): { expected: EventType; recipe: Recipe }[] {
  if (code !== undefined) {
    if (positionals.length > 0) {
      throw new UsageError('give either event types or --error, not both', command)
    }
    const element = at ?? 'instrument'
    return [{ expected: eventOfDecline(element), recipe: declineRecipe(code, element) }]
  }
  if (positionals.length === 0) {
    throw new UsageError('missing <event-type>, such as payment.success', command)
  }
  return positionals.map((type) => {
    if (!isEventType(type)) {
      throw new UsageError(
        `unknown event type "${type}"${eventTypeHint(type)}`,
        command,
        'the event types',
      )
    }
    return { expected: type, recipe: recipes[type] }
  })
}

function printResult(terminal: Terminal, result: TriggerResult, recipe: Recipe) {
  const { style } = terminal
  terminal.line(`${style.bold(result.event_type)}: ${recipe.summary}`)
  const objects = Object.entries(result.objects).map(([kind, object]) =>
    describeObject(kind, object),
  )
  for (const row of formatTable(objectTableHeader, objects)) {
    terminal.line(`  ${row}`)
  }
  terminal.line()
  const rows = eventRows(result.events)
  for (const [index, row] of formatTable(eventTableHeader, rows, (column, text) =>
    column === 1 && text.trim() === result.event_type ? style.green(text) : text,
  ).entries()) {
    terminal.line(`  ${index === 0 ? style.dim(row) : row}`)
  }
  terminal.line()
}
