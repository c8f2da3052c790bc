/**
 * Where the sandbox reports what it does. Messages never contain credentials or card numbers:
 * request logs carry method, path, status, duration, account id and request id only.
 */
export interface SandboxLogger {
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

const ignore = () => {}

/** The default: warnings and errors to stderr, nothing else (tests and benches stay quiet). */
export const quietLogger: SandboxLogger = {
  info: ignore,
  warn: (message, fields) => console.warn(`chargekit-sandbox: ${message}`, fields ?? ''),
  error: (message, fields) => console.error(`chargekit-sandbox: ${message}`, fields ?? ''),
}

/** Everything, one line per entry: what the CLI uses. */
export const consoleLogger: SandboxLogger = {
  info: (message, fields) => console.log(format(message, fields)),
  warn: (message, fields) => console.warn(format(message, fields)),
  error: (message, fields) => console.error(format(message, fields)),
}

function format(message: string, fields: Record<string, unknown> | undefined): string {
  if (fields === undefined) return message
  const parts = Object.entries(fields).map(([key, value]) => `${key}=${describe(value)}`)
  return `${message} ${parts.join(' ')}`
}

function describe(value: unknown): string {
  if (value instanceof Error) return JSON.stringify(value.stack ?? value.message)
  return typeof value === 'string' ? value : JSON.stringify(value)
}
