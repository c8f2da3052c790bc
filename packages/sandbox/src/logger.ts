/**
 * Where the sandbox reports what it does. Messages never contain credentials or card numbers:
 * request logs carry method, path, status, duration, account id and request id only.
 *
 * Each entry is a readable message and the same facts as fields (`method`, `path`, `status`,
 * `duration_ms`, `account`, `request_id` for a request; `event_id`, `event_type`, `url`,
 * `status`, `failure`, `attempt`, `duration_ms`, `account` for a delivery attempt), so a logger
 * may print the message or keep the fields.
 */
export interface SandboxLogger {
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

type Level = keyof SandboxLogger

const ignore = () => {}

/** The default: warnings and errors to stderr, nothing else (tests and benches stay quiet). */
export const quietLogger: SandboxLogger = {
  info: ignore,
  warn: (message, fields) => console.warn(`chargekit-sandbox: ${message}`, fields ?? ''),
  error: (message, fields) => console.error(`chargekit-sandbox: ${message}`, fields ?? ''),
}

/**
 * Fields whose value the message already says in words (`GET /v2/charges 200`,
 * `deliver charge.created ev_… to https://… 204`): the readable form leaves them out.
 */
const statedInMessage: ReadonlySet<string> = new Set([
  'method',
  'path',
  'status',
  'event_id',
  'event_type',
  'url',
  'failure',
])

/** Everything, one readable line per entry: what the CLI prints on a terminal. */
export const consoleLogger: SandboxLogger = {
  info: (message, fields) => console.log(readableLine(message, fields)),
  warn: (message, fields) => console.warn(readableLine(message, fields)),
  error: (message, fields) => console.error(readableLine(message, fields)),
}

/**
 * Everything, one JSON object per line (`time`, `level`, `msg` and the entry's fields), for a
 * log collector: info to stdout, warnings and errors to stderr.
 */
export const jsonLogger: SandboxLogger = {
  info: (message, fields) => process.stdout.write(jsonLine('info', message, fields)),
  warn: (message, fields) => process.stderr.write(jsonLine('warn', message, fields)),
  error: (message, fields) => process.stderr.write(jsonLine('error', message, fields)),
}

/** `message key=value …`, without the fields the message states. */
export function readableLine(message: string, fields: Record<string, unknown> = {}): string {
  const parts = Object.entries(fields)
    .filter(([key, value]) => value !== undefined && !statedInMessage.has(key))
    .map(([key, value]) => `${key}=${describe(value)}`)
  return parts.length === 0 ? message : `${message} ${parts.join(' ')}`
}

/** One log entry as a line of JSON, ending with a newline. */
export function jsonLine(
  level: Level,
  message: string,
  fields: Record<string, unknown> = {},
): string {
  const entry = { time: new Date().toISOString(), level, msg: message, ...fields }
  return `${JSON.stringify(entry, (_key, value: unknown) =>
    value instanceof Error
      ? { name: value.name, message: value.message, stack: value.stack }
      : value,
  )}\n`
}

function describe(value: unknown): string {
  if (value instanceof Error) return JSON.stringify(value.stack ?? value.message)
  return typeof value === 'string' ? value : JSON.stringify(value)
}
