/** One line of the client's log: each attempt's request, each retry, each response. */
export type ClientLogEntry =
  | {
      type: 'request'
      method: string
      url: string
      attempt: number
      /** The request headers, with `authorization` redacted. */
      headers: Readonly<Record<string, string>>
    }
  | {
      type: 'response'
      method: string
      url: string
      attempt: number
      status: number
      requestId: string | undefined
      durationMs: number
    }
  | {
      type: 'retry'
      method: string
      url: string
      /** The attempt that failed (1-based). */
      attempt: number
      /** Why: the HTTP status, or the error name of a connection failure or timeout. */
      reason: string
      delayMs: number
    }

export type ClientLogger = (entry: ClientLogEntry) => void

/** A copy of `headers` safe to log: the credentials replaced by a marker. */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const copy: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    copy[name] = name.toLowerCase() === 'authorization' ? 'Basic [redacted]' : value
  }
  return copy
}
