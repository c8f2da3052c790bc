import type { EventListParams } from '@chargekit/client'
import { deliveryStatusSchema } from '@chargekit/schemas'
import * as z from 'zod'
import {
  commonOptions,
  connectionFlags,
  connectionOptions,
  expectPositionals,
  parseCommandLine,
} from '../command-line'
import { connect } from '../connection'
import { didYouMean } from '../did-you-mean'
import { UsageError } from '../errors'
import { choiceFlag, eventTypeFlag, keyValueFlag, timestampFlag, wholeNumberFlag } from '../flags'
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

const listFlags = z.object({
  ...connectionFlags,
  type: z.array(eventTypeFlag).optional(),
  charge: z.string().optional(),
  object: z.string().optional(),
  metadata: keyValueFlag.optional(),
  'created-gte': timestampFlag.optional(),
  'created-lte': timestampFlag.optional(),
  dismissed: choiceFlag(['true', 'false'])
    .transform((text) => text === 'true')
    .optional(),
  'delivery-status': choiceFlag(deliveryStatusSchema.options).optional(),
  'result-status': wholeNumberFlag(0, 599).optional(),
  limit: wholeNumberFlag(1, 10_000).default(20),
})

const idOptions = { ...connectionOptions, ...commonOptions } as const
const idFlags = z.object(connectionFlags)

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
  const parsed = parseCommandLine(command, argv, listOptions, listFlags)
  if (parsed === undefined) return context.terminal.line(eventsHelp)
  const { flags, positionals } = parsed
  expectPositionals(command, positionals, [])
  const { limit } = flags
  // Never more per page than asked for: `--limit 1` is one small request.
  const params: EventListParams = { per_page: Math.min(limit, 100) }
  if (flags.type !== undefined) params.type = flags.type
  if (flags.charge !== undefined) params.charge = flags.charge
  if (flags.object !== undefined) params.object_id = flags.object
  if (flags.metadata !== undefined) params.metadata = flags.metadata
  if (flags['created-gte'] !== undefined) params.created_gte = flags['created-gte']
  if (flags['created-lte'] !== undefined) params.created_lte = flags['created-lte']
  if (flags.dismissed !== undefined) params.dismissed = flags.dismissed
  if (flags['delivery-status'] !== undefined) params.delivery_status = flags['delivery-status']
  if (flags['result-status'] !== undefined) params.result_status = flags['result-status']
  const { client } = connect(command, flags, context.env)
  const events = await client.events.list(params).toArray({ limit })
  if (flags.json) return context.terminal.json(events)
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
  const parsed = parseCommandLine(command, argv, idOptions, idFlags)
  if (parsed === undefined) return context.terminal.line(eventsHelp)
  const { flags, positionals } = parsed
  expectPositionals(command, positionals, ['<event-id>'])
  const [id = ''] = positionals
  const { client } = connect(command, flags, context.env)
  const event =
    name === 'get'
      ? await client.events.retrieve(id)
      : name === 'resend'
        ? await client.events.redeliver(id)
        : await client.events.dismiss(id)
  if (flags.json) return context.terminal.json(event)
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
