import { Script } from 'node:vm'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildCatalogue } from '../src/dashboard/build-catalogue'
import { createDashboard } from '../src/dashboard/create-dashboard'
import { csrfTokensMatch, isSameOriginRequest } from '../src/dashboard/csrf-guard'
import { loadPageAssets } from '../src/dashboard/page-assets'
import { safeNextPath } from '../src/dashboard/safe-next-path'
import { createSessionStore } from '../src/dashboard/session-store'
import { bucketsFor, percentile } from '../src/dashboard/time-window'
import { createDeliveryAttemptLog } from '../src/delivery/index'
import { escapeHtml } from '../src/html'
import { createMemoryStore } from '../src/index'

const origin = 'http://127.0.0.1:4010'

/**
 * Text made of what URL parsers treat specially (slashes both ways, dots, colons, `@`, `%`,
 * whitespace), where an open redirect hides: `//evil`, `/\evil`, `/dashboard/../..`,
 * `https:evil`. Denser in tricks than `fc.webPath()`, which also takes seconds to build.
 */
const urlTricks = fc.string({
  unit: fc.constantFrom('/', '\\', '.', ':', '@', '?', '#', '%', '2', 'f', 'e', 'v', ' ', '\t'),
  maxLength: 24,
})

describe('safeNextPath', () => {
  it('always lands on a dashboard path of the same origin', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          urlTricks,
          urlTricks.map((path) => `/dashboard${path}`),
          fc
            .tuple(
              fc.constantFrom('https://', 'http://', '//', 'https:', 'javascript:'),
              fc.domain(),
              urlTricks,
            )
            .map((parts) => parts.join('')),
        ),
        (next) => {
          const result = safeNextPath(next, `${origin}/dashboard/session`)
          const target = new URL(result, origin)
          expect(target.origin).toBe(origin)
          expect(result).toMatch(/^\/dashboard(\/|\?|$)/)
        },
      ),
    )
  })

  it('keeps a dashboard path and its query', () => {
    expect(safeNextPath('/dashboard?type=charge.created&metadata%5Bk%5D=v', origin)).toBe(
      '/dashboard?type=charge.created&metadata%5Bk%5D=v',
    )
    expect(safeNextPath('/\\evil.example/dashboard', origin)).toBe('/dashboard')
  })
})

describe('csrfTokensMatch', () => {
  it('matches exactly the equal strings', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(csrfTokensMatch(a, b)).toBe(a === b)
        expect(csrfTokensMatch(b, b)).toBe(true)
      }),
    )
    expect(csrfTokensMatch(undefined, 'x')).toBe(false)
  })
})

describe('isSameOriginRequest', () => {
  const post = (headers: Record<string, string>) =>
    isSameOriginRequest(new Request(`${origin}/dashboard/session`, { method: 'POST', headers }))

  it('trusts what the browser says about the request’s site', () => {
    expect(post({})).toBe(true)
    expect(post({ origin })).toBe(true)
    expect(post({ 'sec-fetch-site': 'same-origin', origin })).toBe(true)
    expect(post({ origin: 'http://127.0.0.1:4011' })).toBe(false)
    expect(post({ origin: 'null' })).toBe(false)
    expect(post({ 'sec-fetch-site': 'same-site' })).toBe(false)
    expect(post({ 'sec-fetch-site': 'cross-site', origin })).toBe(false)
  })
})

describe('escapeHtml', () => {
  it('leaves no markup-significant character and round-trips', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const escaped = escapeHtml(text)
        expect(escaped).not.toMatch(/[<>"']/)
        const decoded = escaped
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'")
          .replace(/&amp;/g, '&')
        expect(decoded).toBe(text)
      }),
    )
  })
})

describe('createSessionStore', () => {
  it('forgets a session left idle too long, and keeps one in use', () => {
    let now = 0
    const store = createSessionStore({ idleTimeoutMs: 1000, maxSessions: 10, now: () => now })
    const idle = store.create('acct_1', 'Basic a')
    const used = store.create('acct_2', 'Basic b')
    for (now = 0; now <= 1500; now += 500) expect(store.get(used.token)?.accountId).toBe('acct_2')
    expect(store.get(idle.token)).toBeUndefined()
  })

  it('drops the least recently used session beyond the limit', () => {
    const store = createSessionStore({ idleTimeoutMs: 60_000, maxSessions: 2 })
    const first = store.create('acct_1', 'Basic a')
    const second = store.create('acct_2', 'Basic b')
    store.get(first.token)
    const third = store.create('acct_3', 'Basic c')
    expect(store.get(second.token)).toBeUndefined()
    expect(store.get(first.token)?.accountId).toBe('acct_1')
    expect(store.get(third.token)?.accountId).toBe('acct_3')
  })

  it('issues distinct random session and CSRF tokens', () => {
    const store = createSessionStore({ idleTimeoutMs: 60_000, maxSessions: 100 })
    const tokens = Array.from({ length: 50 }, () => store.create('acct', 'Basic a')).flatMap(
      (session) => [session.token, session.csrfToken],
    )
    expect(new Set(tokens).size).toBe(100)
    for (const token of tokens) expect(token).toMatch(/^[\w-]{43}$/)
  })

  it('deletes a session', () => {
    const store = createSessionStore({ idleTimeoutMs: 60_000, maxSessions: 10 })
    const session = store.create('acct', 'Basic a')
    store.delete(session.token)
    expect(store.get(session.token)).toBeUndefined()
  })
})

describe('dashboard script', () => {
  it('is valid JavaScript that carries every event type and error designation', async () => {
    const data = buildCatalogue()
    const script = (await loadPageAssets()).script.body
    expect(() => new Script(script)).not.toThrow()
    expect(script).toContain(JSON.stringify(data))
    expect(data.eventTypes).toHaveLength(22)
    expect(data.errorCodes['06.02.0000']?.designation).toBe('Unsafe Transaction')
    expect(data.errorCodes['05.02.0000']?.aliases.length).toBeGreaterThan(0)
    // The page builds DOM nodes from data; HTML parsing APIs would make event data an injection risk.
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/)
  })
})

describe('createDashboard', () => {
  const api = async () => new Response(null, { status: 204 })

  it('serves every route under /dashboard only', async () => {
    const dashboard = createDashboard({
      api,
      data: {
        store: createMemoryStore(),
        deliveries: createDeliveryAttemptLog(),
        now: () => new Date(),
      },
    })
    expect((await dashboard.request('/dashboard')).status).toBe(200)
    const slash = await dashboard.request('http://127.0.0.1/dashboard/?charge=ch_1')
    expect(slash.status).toBe(301)
    expect(slash.headers.get('location')).toBe('http://127.0.0.1/dashboard?charge=ch_1')
    expect((await dashboard.request('/')).status).toBe(404)
    expect((await dashboard.request('/v2/events')).status).toBe(404)
  })
})

describe('delivery attempt log', () => {
  const job = (accountId: string, eventsUrl: string, eventId = 'ev_1') => ({
    accountId,
    eventId,
    eventType: 'charge.created',
    chargeId: 'ch_1',
    eventsUrl,
    body: '{}',
  })
  const attempt = (resultStatus: number, durationMs = 5) => ({
    at: new Date(),
    resultStatus,
    durationMs,
    kind: 'first' as const,
  })

  it('keeps totals of every attempt and details of the latest, per account and events URL', () => {
    const log = createDeliveryAttemptLog({ attemptsPerReceiver: 3, receiversPerAccount: 2 })
    for (const status of [200, 500, 204, 0, 201])
      log.record(job('acct_a', 'http://a/1'), attempt(status))
    const receiver = log.receiver('acct_a', 'http://a/1')
    expect(receiver).toMatchObject({ attempts: 5, succeeded: 3 })
    expect(receiver?.recent.map((each) => each.resultStatus)).toEqual([204, 0, 201])
    expect(log.receivers('acct_b')).toEqual([])
    expect(log.receiver('acct_b', 'http://a/1')).toBeUndefined()
    // Past two URLs, the one attempted least recently goes.
    log.record(job('acct_a', 'http://a/2'), attempt(200))
    log.record(job('acct_a', 'http://a/1'), attempt(200))
    log.record(job('acct_a', 'http://a/3'), attempt(200))
    expect(log.receivers('acct_a').map((each) => each.eventsUrl)).toEqual([
      'http://a/3',
      'http://a/1',
    ])
  })
})

describe('time windows', () => {
  it('end with the bucket holding now, and place instants in their bucket', () => {
    const now = new Date('2026-03-04T10:30:45.000Z')
    const { window, indexOf } = bucketsFor('1h', now)
    expect(window.buckets).toHaveLength(60)
    expect(window.to).toBe('2026-03-04T10:31:00.000Z')
    expect(window.from).toBe('2026-03-04T09:31:00.000Z')
    expect(indexOf('2026-03-04T10:30:00.000Z')).toBe(59)
    expect(indexOf('2026-03-04T09:31:00.000Z')).toBe(0)
    expect(indexOf('2026-03-04T09:30:59.999Z')).toBeUndefined()
    expect(indexOf('2026-03-04T10:31:00.000Z')).toBeUndefined()
  })

  it('take nearest-rank percentiles', () => {
    expect(percentile([], 0.5)).toBeNull()
    expect(percentile([7], 0.95)).toBe(7)
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2)
    expect(
      percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 100], 0.95),
    ).toBe(19)
  })
})
