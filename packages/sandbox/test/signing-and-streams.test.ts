import { randomUUID } from 'node:crypto'
import { Webhook } from 'standardwebhooks'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { type Sandbox, type SandboxLogger, startSandbox } from '../src/index'
import { authorization, startReceiver, testCard } from '../src/testing/index'
import { createDatabase } from './postgres-server'
import { freshDataFolder } from './store-under-test'

const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

async function started(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ port: 0, timeScale: 0.001, ...options })
  cleanups.push(() => sandbox.close())
  return sandbox
}

function call(
  sandbox: Sandbox,
  path: string,
  init: RequestInit = {},
  account = sandbox.accounts[0],
) {
  return fetch(`${sandbox.apiUrl}${path}`, {
    ...init,
    headers: {
      authorization: authorization(account?.id ?? '', account?.privateKey ?? ''),
      'content-type': 'application/json',
      ...init.headers,
    },
  })
}

async function createCharge(sandbox: Sandbox, eventsUrl: string): Promise<string> {
  const answer = await call(sandbox, '/charges', {
    method: 'POST',
    body: JSON.stringify({
      charge_type: 'card_onetime',
      amount: 10,
      currency: 'EUR',
      events_url: eventsUrl,
    }),
  })
  const charge = (await answer.json()) as { id: string }
  await (
    await call(sandbox, '/instruments', {
      method: 'POST',
      body: JSON.stringify(testCard(charge.id)),
    })
  ).arrayBuffer()
  return charge.id
}

/** An open stream's messages as they arrive, read with the plain text rules of SSE. */
function readStream(response: Response) {
  const messages: { id?: string; event?: string; data: string }[] = []
  const waiters = new Set<() => void>()
  let buffer = ''
  const reader = response.body?.pipeThrough(new TextDecoderStream()).getReader()
  const done = (async () => {
    for (;;) {
      const chunk = await reader?.read().catch(() => ({ done: true as const, value: undefined }))
      if (chunk === undefined || chunk.done) break
      buffer += chunk.value
      let end = buffer.indexOf('\n\n')
      while (end !== -1) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const fields = block.split('\n').filter((line) => !line.startsWith(':'))
        const value = (name: string) =>
          fields.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2)
        const [data, id, event] = [value('data'), value('id'), value('event')]
        if (data !== undefined) {
          messages.push({
            data,
            ...(id === undefined ? {} : { id }),
            ...(event === undefined ? {} : { event }),
          })
        }
        end = buffer.indexOf('\n\n')
      }
      for (const wake of waiters) wake()
    }
  })()
  return {
    messages,
    ids: () => messages.filter((message) => message.id !== undefined).map((message) => message.id),
    done,
    until: (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (messages.length >= count) resolve()
        }
        waiters.add(check)
        check()
      }),
    cancel: () => reader?.cancel(),
  }
}

async function eventIds(sandbox: Sandbox, query = ''): Promise<string[]> {
  const answer = (await (await call(sandbox, `/events?per_page=100${query}`)).json()) as {
    collection: { id: string }[]
  }
  return answer.collection.map((event) => event.id).reverse()
}

describe('signing secrets', () => {
  it('gives each account its own whsec_ secret at first start, signs its deliveries with it and answers it to the account', async () => {
    const receiver = await startReceiver(() => 204)
    cleanups.push(() => receiver.stop())
    const sandbox = await started({
      accounts: [
        { id: 'acct_one', privateKey: 'sk_one' },
        { id: 'acct_two', privateKey: 'sk_two' },
      ],
    })
    const [one, two] = sandbox.accounts
    expect(one?.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    expect(two?.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    expect(one?.signingSecret).not.toBe(two?.signingSecret)
    for (const account of [one, two]) {
      const answer = await call(sandbox, '/test/signing_secret', {}, account)
      expect(await answer.json()).toEqual({ signing_secret: account?.signingSecret })
    }

    await createCharge(sandbox, `${receiver.url}/events`)
    await receiver.until((received) => received.length >= 5)
    const verifier = new Webhook(one?.signingSecret ?? '')
    const other = new Webhook(two?.signingSecret ?? '')
    for (const delivery of receiver.received) {
      const headers = {
        'webhook-id': String(delivery.headers['webhook-id']),
        'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
        'webhook-signature': String(delivery.headers['webhook-signature']),
      }
      expect(verifier.verify(delivery.body, headers)).toMatchObject({ id: delivery.id })
      // Another account's secret does not verify it: accounts are kept apart.
      expect(() => other.verify(delivery.body, headers)).toThrow()
    }
  })

  it('signs with the configured secret instead, or not at all with false', async () => {
    const configured = `whsec_${Buffer.from('a configured secret of 24b').toString('base64')}`
    const chosen = await started({ signingSecret: configured })
    expect(chosen.accounts[0]?.signingSecret).toBe(configured)
    const unsigned = await started({ signingSecret: false })
    expect(unsigned.accounts[0]?.signingSecret).toBeUndefined()
    expect(await (await call(unsigned, '/test/signing_secret')).json()).toEqual({
      signing_secret: null,
    })

    const receiver = await startReceiver(() => 204)
    cleanups.push(() => receiver.stop())
    await createCharge(unsigned, `${receiver.url}/events`)
    await receiver.until((received) => received.length >= 1)
    expect(receiver.received[0]?.headers['webhook-signature']).toBeUndefined()
  })

  it('keeps the secret out of every log line', async () => {
    const lines: string[] = []
    const logger: SandboxLogger = {
      info: (message, fields) => lines.push(message, JSON.stringify(fields ?? {})),
      warn: (message, fields) => lines.push(message, JSON.stringify(fields ?? {})),
      error: (message, fields) => lines.push(message, JSON.stringify(fields ?? {})),
    }
    const receiver = await startReceiver(() => 500)
    cleanups.push(() => receiver.stop())
    const sandbox = await started({ logger })
    await createCharge(sandbox, `${receiver.url}/events`)
    await receiver.until((received) => received.length >= 3)
    await (await call(sandbox, '/test/signing_secret')).arrayBuffer()
    expect(lines.length).toBeGreaterThan(3)
    const secret = sandbox.accounts[0]?.signingSecret ?? ''
    expect(lines.join('\n')).not.toContain(secret.slice('whsec_'.length))
  })

  it('keeps the secret across restarts on a data folder', async () => {
    // A copy of an empty, migrated database: the secret is made at the first start on it.
    const state = await freshDataFolder()
    cleanups.push(state.remove)
    const first = await startSandbox({ port: 0, ...state.options })
    const secret = first.accounts[0]?.signingSecret
    await first.close()
    const second = await startSandbox({ port: 0, ...state.options })
    expect(second.accounts[0]?.signingSecret).toBe(secret)
    await second.close()
    expect(secret).toMatch(/^whsec_/)
  }, 60_000)

  it.skipIf(inject('postgresUrl') === undefined)(
    'keeps the secret across restarts on PostgreSQL, one for every process sharing it',
    async () => {
      const database = await createDatabase(
        inject('postgresUrl') as string,
        `signing_${randomUUID().slice(0, 8)}`,
      )
      cleanups.push(database.drop)
      const together = await Promise.all([
        startSandbox({ port: 0, database: database.url }),
        startSandbox({ port: 0, database: database.url }),
      ])
      const secrets = together.map((sandbox) => sandbox.accounts[0]?.signingSecret)
      await Promise.all(together.map((sandbox) => sandbox.close()))
      expect(secrets[0]).toMatch(/^whsec_/)
      expect(secrets[1]).toBe(secrets[0])
      const again = await startSandbox({ port: 0, database: database.url })
      expect(again.accounts[0]?.signingSecret).toBe(secrets[0])
      await again.close()
    },
    60_000,
  )
})

describe('the event stream', () => {
  it('pushes new events as they are stored and resumes after Last-Event-ID with none lost or repeated', async () => {
    const sandbox = await started({ deliverEvents: false })
    await createCharge(sandbox, 'https://shop.example/events')
    const before = await eventIds(sandbox)
    const first = readStream(await call(sandbox, '/events/stream'))
    const charge = await createCharge(sandbox, 'https://shop.example/events')
    await first.until(5)
    // From now: none of the events stored before the stream opened.
    expect(first.ids()).toEqual(await eventIds(sandbox, `&charge=${charge}`))
    expect(first.ids().some((id) => before.includes(id as string))).toBe(false)
    const sent = JSON.parse(first.messages[0]?.data ?? '{}')
    expect(sent).toMatchObject({
      id: first.ids()[0],
      type: 'charge.created',
      charge: { id: charge },
    })
    // The connection drops; events go on being stored meanwhile.
    await first.cancel()
    const missed = await createCharge(sandbox, 'https://shop.example/events')
    const resumed = readStream(
      await call(sandbox, '/events/stream', {
        headers: { 'last-event-id': first.ids().at(-1) as string },
      }),
    )
    const later = await createCharge(sandbox, 'https://shop.example/events')
    await resumed.until(10)
    expect(resumed.ids()).toEqual([
      ...(await eventIds(sandbox, `&charge=${missed}`)),
      ...(await eventIds(sandbox, `&charge=${later}`)),
    ])
    await resumed.cancel()
  })

  it('filters by type, starts at created_gte, and refuses an unknown Last-Event-ID or no credentials', async () => {
    const sandbox = await started({ deliverEvents: false })
    const since = new Date().toISOString()
    await createCharge(sandbox, 'https://shop.example/events')
    const stream = readStream(
      await call(
        sandbox,
        `/events/stream?type=instrument.authorized&type=payment.success&created_gte=${since}`,
      ),
    )
    await stream.until(2)
    expect(stream.messages.map((message) => JSON.parse(message.data).type)).toEqual([
      'instrument.authorized',
      'payment.success',
    ])
    await stream.cancel()

    const unknown = await call(sandbox, '/events/stream', {
      headers: { 'last-event-id': 'ev_unknown' },
    })
    expect(unknown.status).toBe(400)
    expect(await unknown.json()).toMatchObject({
      parameters: { 'Last-Event-ID': [expect.stringContaining('ev_unknown')] },
    })
    const anonymous = await fetch(`${sandbox.apiUrl}/events/stream`)
    expect(anonymous.status).toBe(401)
    await anonymous.arrayBuffer()
  })

  it.skipIf(inject('postgresUrl') === undefined)(
    'sends the events another process sharing its PostgreSQL database stores',
    async () => {
      const database = await createDatabase(
        inject('postgresUrl') as string,
        `streams_${randomUUID().slice(0, 8)}`,
      )
      cleanups.push(database.drop)
      const [reading, writing] = await Promise.all([
        started({ database: database.url, deliverEvents: false }),
        started({ database: database.url, deliverEvents: false }),
      ])
      const stream = readStream(await call(reading, '/events/stream'))
      const charge = await createCharge(writing, 'https://shop.example/events')
      await stream.until(5)
      expect(stream.ids()).toEqual(await eventIds(writing, `&charge=${charge}`))
      await stream.cancel()
    },
    60_000,
  )

  it('holds at most 10 streams per account, frees a slot when a client leaves, and ends every stream on close', async () => {
    const sandbox = await startSandbox({ port: 0 })
    const open = await Promise.all(
      Array.from({ length: 10 }, async () => readStream(await call(sandbox, '/events/stream'))),
    )
    const refused = await call(sandbox, '/events/stream')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('5')
    expect((await refused.json()).message).toMatch(/10 event streams open/)
    await open[0]?.cancel()
    let admitted: Response | undefined
    // The server notices the closed connection on its next write or read.
    for (let tries = 0; tries < 50; tries++) {
      const answer = await call(sandbox, '/events/stream')
      if (answer.status === 200) {
        admitted = answer
        break
      }
      await answer.arrayBuffer()
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(admitted?.status).toBe(200)
    const last = readStream(admitted as Response)
    await sandbox.close()
    // Every stream ends with the sandbox: its clients reconnect to the next one.
    await Promise.all([last.done, ...open.slice(1).map((stream) => stream.done)])
  })
})
