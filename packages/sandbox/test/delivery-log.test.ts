import { afterEach, describe, expect, it } from 'vitest'
import type { SandboxLogger } from '../src/index'
import { eventually, startReceiver, startTestSandbox, type TestSandbox } from '../src/testing/index'

// What the sandbox tells its logger about deliveries, and where it may deliver to.

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A sandbox whose log lines are kept, with retries compressed to milliseconds. */
async function loggedSandbox(options: { allowHttpEventsUrl?: boolean } = {}) {
  const lines: string[] = []
  const record = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`)
  const logger: SandboxLogger = {
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
  }
  const sandbox = await startTestSandbox({ timeScale: 0.00001, logger, ...options })
  cleanups.push(() => sandbox.close())
  return { sandbox, lines }
}

/** POST /v2/charges of 10 EUR whose events go to `eventsUrl`. */
function createCharge(sandbox: TestSandbox, eventsUrl: string) {
  return sandbox.createCharge({ events_url: eventsUrl })
}

const deliveryLines = (lines: readonly string[]) =>
  lines.filter((line) => line.startsWith('info deliver '))

describe('delivery attempts in the log', () => {
  it('logs each attempt: event, URL without its query, status or failure reason, duration', async () => {
    let createdAnswers = 0
    const merchant = await startReceiver((delivery) =>
      delivery.type === 'charge.created' && ++createdAnswers === 1 ? 500 : 204,
    )
    cleanups.push(() => merchant.stop())
    const { sandbox, lines } = await loggedSandbox()
    const charge = await createCharge(sandbox, `${merchant.url}/hooks?token=s3cret`)
    expect(charge.status).toBe(201)
    // charge.created: 500, then 204 on the retry; charge.confirmed: 204.
    await eventually(async () => expect(deliveryLines(lines)).toHaveLength(3))
    const [failed, retried] = deliveryLines(lines).filter((line) => line.includes('charge.created'))
    const prefix = `info deliver charge.created ev_`
    expect(failed).toMatch(
      new RegExp(
        `^${prefix}\\w+ to ${merchant.url}/hooks\\?… 500 \\{"event_id":"ev_\\w+","event_type":"charge.created","url":"${merchant.url}/hooks\\?…","status":500,"duration_ms":\\d+,"attempt":"first","account":"acct_sandbox"\\}$`,
      ),
    )
    expect(retried).toMatch(
      / 204 \{.*"status":204,"duration_ms":\d+,"attempt":"retry","account":"acct_sandbox"\}$/,
    )
    expect(lines.join('\n')).not.toContain('s3cret')

    // A receiver that is gone: no status, the reason instead.
    await merchant.stop()
    await createCharge(sandbox, `${merchant.url}/hooks`)
    await eventually(async () =>
      expect(deliveryLines(lines).at(-1)).toMatch(
        new RegExp(
          `^info deliver charge\\.\\w+ ev_\\w+ to ${merchant.url}/hooks failed \\(ECONNREFUSED\\) \\{.*"status":0,"failure":"ECONNREFUSED","duration_ms":\\d+,`,
        ),
      ),
    )
  })
})

describe('allowHttpEventsUrl', () => {
  // `.invalid` never resolves (RFC 6761): the attempt fails on the name, not on the scheme.
  const composeUrl = 'http://shop.invalid:3000/webhooks'

  it('is off by default: plain http only to loopback, https elsewhere', async () => {
    const { sandbox } = await loggedSandbox()
    const refused = await createCharge(sandbox, composeUrl)
    expect(refused.status).toBe(400)
    expect(refused.body.parameters).toEqual({
      events_url: ['Expected an https:// URL (or http:// to 127.0.0.1, localhost or [::1])'],
    })
  })

  it('lets deliveries go over plain http to any host', async () => {
    const { sandbox, lines } = await loggedSandbox({ allowHttpEventsUrl: true })
    const charge = await createCharge(sandbox, composeUrl)
    expect(charge.status).toBe(201)
    expect(charge.body.events_url).toBe(composeUrl)
    // Attempted over http: a name lookup failure, not a refused URL.
    await eventually(async () =>
      expect(deliveryLines(lines)[0]).toMatch(
        /^info deliver charge\.\w+ ev_\w+ to http:\/\/shop\.invalid:3000\/webhooks failed \((ENOTFOUND|EAI_AGAIN)\)/,
      ),
    )
    const ftp = await createCharge(sandbox, 'ftp://shop.invalid/webhooks')
    expect(ftp.body.parameters).toEqual({ events_url: ['Expected an http:// or https:// URL'] })
  })
})
