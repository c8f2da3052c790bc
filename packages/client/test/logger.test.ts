import { authorization, type TestSandbox } from '@chargekit/sandbox/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ClientLogEntry, VERSION } from '../src/index'
import { type FaultProxy, startFaultProxy } from './support/fault-proxy'
import { chargeParams } from './support/flows'
import { account, onEachTransport, startClientSandbox } from './support/sandbox'

onEachTransport(({ testClient }) => {
  let env: TestSandbox
  let proxy: FaultProxy

  beforeAll(async () => {
    env = await startClientSandbox()
    proxy = await startFaultProxy(env.sandbox.url)
  })
  afterAll(async () => {
    await proxy.close()
    await env.close()
  })

  describe('logger', () => {
    it('sees each request, retry and response, with the Authorization header redacted', async () => {
      const entries: ClientLogEntry[] = []
      const client = testClient(proxy.url, { logger: (entry) => entries.push(entry) })
      proxy.inject(
        { method: 'POST', path: '/v2/charges' },
        { kind: 'respond', status: 502, body: 'Bad gateway' },
      )
      const charge = await client.charges.create(chargeParams(env.eventsUrl))

      expect(entries.map((entry) => entry.type)).toEqual([
        'request',
        'response',
        'retry',
        'request',
        'response',
      ])
      const [request, failed, retry, , done] = entries
      expect(request).toMatchObject({
        type: 'request',
        method: 'POST',
        url: `${proxy.url}/v2/charges`,
        attempt: 1,
        headers: {
          authorization: 'Basic [redacted]',
          'user-agent': `chargekit-client/${VERSION}`,
          'content-type': 'application/json',
          'idempotency-key': expect.stringMatching(/^[0-9a-f-]{36}$/),
        },
      })
      expect(failed).toMatchObject({ type: 'response', status: 502, attempt: 1 })
      expect(retry).toMatchObject({ type: 'retry', reason: '502', attempt: 1 })
      expect(done).toMatchObject({ type: 'response', status: 201, attempt: 2 })
      expect((done as { requestId?: string }).requestId).toMatch(/^req_/)
      expect(charge.id).toMatch(/^ch_/)

      const text = JSON.stringify(entries)
      expect(text).not.toContain(account.key)
      expect(text).not.toContain(btoa(`${account.id}:${account.key}`))
    })

    it('keeps working when the logger throws', async () => {
      const client = testClient(env.sandbox.url, {
        logger: () => {
          throw new Error('broken logger')
        },
      })
      const charge = await client.charges.create(chargeParams(env.eventsUrl))
      expect(charge.id).toMatch(/^ch_/)
    })

    it('redacts a key the service echoes into an error message', async () => {
      proxy.inject(
        { method: 'GET', path: '/v2/payments' },
        {
          kind: 'respond',
          status: 400,
          body: JSON.stringify({
            message: `Bad key ${account.key} in ${authorization(account.id, account.key)}`,
            failure_code: '01.01.0000',
          }),
        },
      )
      const error = await testClient(proxy.url)
        .payments.list()
        .then(
          () => undefined,
          (caught: unknown) => caught as Error,
        )
      expect(error?.message).toContain('Bad key [redacted] in Basic [redacted]')
      expect(error?.message).not.toContain(account.key)
    })

    it.each([
      [409, 'ConflictError', 'designation'],
      [402, 'PaymentError', 'failureDescription'],
    ])(
      'redacts a key the service echoes into a failure_description (%i)',
      async (status, name, property) => {
        proxy.inject(
          { method: 'POST', path: '/v2/charges' },
          {
            kind: 'respond',
            status,
            // No failure_code: the failure description itself becomes the designation.
            body: JSON.stringify({
              message: 'Rejected',
              failure_description: `Key ${account.key} is not allowed here`,
            }),
          },
        )
        const error = await testClient(proxy.url)
          .charges.create(chargeParams(env.eventsUrl))
          .then(
            () => undefined,
            (caught: unknown) => caught as Error & Record<string, unknown>,
          )
        expect(error?.name).toBe(name)
        expect(error?.message).toContain('Key [redacted] is not allowed here')
        expect(error?.message).not.toContain(account.key)
        expect(error?.[property]).toBe('Key [redacted] is not allowed here')
      },
    )

    it('redacts the credentials a custom fetch puts in its error, down the cause chain', async () => {
      const header = authorization(account.id, account.key)
      const client = testClient(env.sandbox.url, {
        maxRetries: 0,
        fetch: async (_url, init) => {
          const sent = new Headers(init?.headers).get('authorization') ?? ''
          const proxyFailure = Object.assign(new Error(`proxy refused ${sent}`), {
            code: 'EPROXY',
            header: sent,
            cause: new Error(`upstream saw key ${account.key}`),
          })
          throw new TypeError(`fetch failed with ${sent}`, { cause: proxyFailure })
        },
      })
      const error = await client.charges.retrieve('ch_1').then(
        () => undefined,
        (caught: unknown) => caught as Error,
      )
      expect(error?.name).toBe('ConnectionError')
      // Everything a logger would print: message, causes with their own fields and stacks.
      const seen: string[] = []
      for (let current: unknown = error; current instanceof Error; current = current.cause) {
        seen.push(current.message, current.stack ?? '', JSON.stringify(current))
      }
      const printed = seen.join('\n')
      expect(printed).toContain('proxy refused Basic [redacted]')
      expect(printed).toContain('upstream saw key [redacted]')
      expect(printed).toContain('EPROXY')
      expect(printed).not.toContain(account.key)
      expect(printed).not.toContain(header.slice('Basic '.length))
    })
  })
})
