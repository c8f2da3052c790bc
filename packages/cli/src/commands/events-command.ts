import type { EventListParams } from '@chargekit/client'
import {
  deliveryStatusSchema,
  type EventType,
  eventTypeList,
  isEventType,
} from '@chargekit/schemas'
import {
  choiceFlag,
  commonOptions,
  connectionOptions,
  expectPositionals,
  integerFlag,
  keyValueFlag,
  parseCommandLine,
  timestampFlag,
} from '../command-line'
import { connect } from '../connection'
import { didYouMean } from '../did-you-mean'
import { UsageError } from '../errors'
import {
  connectionHelp,
  deliveryOf,
  describeObject,
  eventRows,
  eventTableHeader,
  objectsOf,
  objectTableHeader,
} from '../formats'
import { formatTable } from '../terminal'
import type { CommandContext } from './command'

const listOptions = {
  ...connectionOptions,
  ...commonOptions,
  type: { type: 'string', multiple: true },
  charge: { type: 'string' },
  object: { type: 'string' },
  metadata: { type: 'string', multiple: true },
  'created-gte': { type: 'string' },
  'created-lte': { type: 'string' },
  dismissed: { type: 'string' },
  'delivery-status': { type: 'string' },
  'result-status': { type: 'string' },
  limit: { type: 'string' },
} as const

const idOptions = { ...connectionOptions, ...commonOptions } as const

const subcommands = ['list', 'get', 'resend', 'dismiss'] as const

const eventsHelp = `Usage: chargekit events <list|get|resend|dismiss> [options]

Searches and handles the account's lifecycle events.

  list                   the newest events first, with the filters below (combined with AND)
  get <event-id>         one event in full: every object of its transaction at that moment
  resend <event-id>      one more delivery attempt to the charge's events_url, now
  dismiss <event-id>     marks the event dismissed (sets dismissed_at)

Filters of list:
  --type <event-type>    repeat for several (any of them)
  --charge <charge-id>   events of one charge
  --object <object-id>   events about one object (instrument, payment, refund, …)
  --metadata <key=value> events whose charge metadata has this value; repeat for several
  --created-gte <time>   created at or after an ISO 8601 time, e.g. 2026-01-31T12:00:00Z
  --created-lte <time>   created at or before
  --dismissed <bool>     true or false
  --delivery-status <s>  ${deliveryStatusSchema.options.join(', ')}
  --result-status <n>    HTTP status of the latest delivery attempt (0: no answer)
  --limit <n>            how many events at most, over as many pages as needed (default 20)

Options:
${connectionHelp}
Examples:
  chargekit events list --type payment.success --created-gte 2026-01-31T00:00:00Z
  chargekit events list --charge ch_123 --json | jq '.[].type'
  chargekit events get ev_123
  chargekit events resend ev_123
  chargekit events dismiss ev_123 --json
`

export async function eventsCommand(argv: readonly string[], context: CommandContext) {
  const [subcommand, ...rest] = argv
  if (subcommand === undefined) {
    throw new UsageError('missing list, get, resend or dismiss', 'events')
  }
  if (subcommand === '--help' || subcommand === '-h') return context.terminal.line(eventsHelp)
  const name = subcommands.find((candidate) => candidate === subcommand)
  if (name === undefined) {
    throw new UsageError(
      `unknown subcommand "${subcommand}"${didYouMean(subcommand, subcommands)}; expected list, get, resend or dismiss`,
      'events',
    )
  }
  if (name === 'list') return listEvents(rest, context)
  return eventAction(name, rest, context)
}

async function listEvents(argv: readonly string[], context: CommandContext) {
  const command = 'events list'
  const { values, positionals } = parseCommandLine(command, argv, listOptions)
  if (values.help) return context.terminal.line(eventsHelp)
  expectPositionals(command, positionals, [])
  const params: EventListParams = { per_page: 100 }
  if (values.type !== undefined) params.type = values.type.map((type) => eventType(command, type))
  if (values.charge !== undefined) params.charge = values.charge
  if (values.object !== undefined) params.object_id = values.object
  const metadata = keyValueFlag(command, '--metadata', values.metadata)
  if (metadata !== undefined) params.metadata = metadata
  if (values['created-gte'] !== undefined) {
    params.created_gte = timestampFlag(command, '--created-gte', values['created-gte'])
  }
  if (values['created-lte'] !== undefined) {
    params.created_lte = timestampFlag(command, '--created-lte', values['created-lte'])
  }
  if (values.dismissed !== undefined) {
    params.dismissed =
      choiceFlag(command, '--dismissed', values.dismissed, ['true', 'false']) === 'true'
  }
  if (values['delivery-status'] !== undefined) {
    params.delivery_status = choiceFlag(
      command,
      '--delivery-status',
      values['delivery-status'],
      deliveryStatusSchema.options,
    )
  }
  if (values['result-status'] !== undefined) {
    params.result_status = integerFlag(command, '--result-status', values['result-status'], 0, 599)
  }
  const limit =
    values.limit === undefined ? 20 : integerFlag(command, '--limit', values.limit, 1, 10_000)
  // Never more per page than asked for: `--limit 1` is one small request.
  params.per_page = Math.min(limit, 100)
  const { client } = connect(command, values, context.env)
  const events = await client.events.list(params).toArray({ limit })
  if (values.json) return context.terminal.json(events)
  if (events.length === 0) return context.terminal.note('No events match.')
  const [header, ...rows] = formatTable(eventTableHeader, eventRows(events))
  context.terminal.line(context.terminal.style.dim(header ?? ''))
  for (const row of rows) context.terminal.line(row)
}

async function eventAction(
  name: 'get' | 'resend' | 'dismiss',
  argv: readonly string[],
  context: CommandContext,
) {
  const command = `events ${name}`
  const { values, positionals } = parseCommandLine(command, argv, idOptions)
  if (values.help) return context.terminal.line(eventsHelp)
  expectPositionals(command, positionals, ['<event-id>'])
  const [id = ''] = positionals
  const { client } = connect(command, values, context.env)
  const event =
    name === 'get'
      ? await client.events.retrieve(id)
      : name === 'resend'
        ? await client.events.redeliver(id)
        : await client.events.dismiss(id)
  if (values.json) return context.terminal.json(event)
  const { line, style } = context.terminal
  line(`${style.bold(event.type)}  ${event.id}  (${event.type_label})`)
  line(`  created_at   ${event.created_at}`)
  line(`  object_id    ${event.object_id}`)
  line(`  delivery     ${deliveryOf(event)}${event.charge ? ` to ${event.charge.events_url}` : ''}`)
  for (const attempt of event.retries_log) {
    line(`    retry      ${attempt.created_at}  ${attempt.result_status}`)
  }
  if (event.dismissed_at) line(`  dismissed_at ${event.dismissed_at}`)
  const objects = objectsOf(event).map(([kind, object]) => describeObject(kind, object))
  line()
  for (const row of formatTable(objectTableHeader, objects)) line(`  ${row}`)
}

function eventType(command: string, text: string): EventType {
  if (!isEventType(text)) {
    throw new UsageError(
      `--type expects an event type such as payment.success; got "${text}"${didYouMean(text, eventTypeList)}`,
      command,
    )
  }
  return text
}
