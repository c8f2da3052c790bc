/**
 * Signed-in dashboard sessions, kept only in this process's memory. The browser holds nothing
 * but a random token in an HttpOnly cookie; the account's Basic credentials stay here, so they
 * never reach a URL, the page, the browser's storage or a log line.
 */
export interface DashboardSession {
  /** The cookie value: 256 random bits, base64url. */
  readonly token: string
  readonly accountId: string
  /** `Basic …` header the dashboard adds to the API calls it makes for this session. */
  readonly authorization: string
  /** Sent back by the page on state-changing calls (header or form field); see csrf-guard.ts. */
  readonly csrfToken: string
  lastUsedAt: number
}

export interface SessionStoreOptions {
  /** A session unused this long is forgotten. */
  idleTimeoutMs: number
  /** Beyond this many sessions the least recently used one is dropped, so memory stays bounded. */
  maxSessions: number
  now?: () => number
}

export interface SessionStore {
  create(accountId: string, authorization: string): DashboardSession
  /** The live session for a cookie value, marked as used now; undefined when unknown or idle too long. */
  get(token: string | undefined): DashboardSession | undefined
  delete(token: string | undefined): void
}

export function createSessionStore(options: SessionStoreOptions): SessionStore {
  const now = options.now ?? Date.now
  // A Map iterates in insertion order; re-inserting on use keeps it least-recently-used first.
  const sessions = new Map<string, DashboardSession>()

  const isExpired = (session: DashboardSession) =>
    now() - session.lastUsedAt > options.idleTimeoutMs

  return {
    create(accountId, authorization) {
      for (const [token, session] of sessions) {
        if (sessions.size < options.maxSessions && !isExpired(session)) break
        sessions.delete(token)
      }
      const session: DashboardSession = {
        token: randomToken(),
        accountId,
        authorization,
        csrfToken: randomToken(),
        lastUsedAt: now(),
      }
      sessions.set(session.token, session)
      return session
    },
    get(token) {
      if (token === undefined) return undefined
      const session = sessions.get(token)
      if (session === undefined) return undefined
      sessions.delete(token)
      if (isExpired(session)) return undefined
      session.lastUsedAt = now()
      sessions.set(token, session)
      return session
    },
    delete(token) {
      if (token !== undefined) sessions.delete(token)
    },
  }
}

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}
