import type { TestSandbox } from '@chargekit/sandbox/testing'
import { chargeSchema } from '@chargekit/schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import {
  type ChargekitClient,
  type ClientLogEntry,
  NotFoundError,
  ResponseValidationError,
} from '../src/index'
import { capture, chargeParams, orderId } from './support/flows'
import { onEachTransport, startClientSandbox } from './support/sandbox'

onEachTransport(({ testClient }) => {
  let env: TestSandbox
  let client: ChargekitClient
  let sent: Extract<ClientLogEntry, { type: 'request' }>[]

  beforeAll(async () => {
    env = await startClientSandbox()
    sent = []
    client = testClient(env.sandbox.url, {
      logger: (entry) => {
        if (entry.type === 'request') sent.push(entry)
      },
    })
  })
  afterAll(() => env.close())

  describe('client.request()', () => {
    it('sends a GET with its query and answers the body unchecked', async () => {
      const { charge, payment } = await capture(client, env.eventsUrl)
      const page: unknown = await client.request({
        method: 'GET',
        path: '/payments',
        query: { charge: charge.id, per_page: 5 },
      })
      expect(page).toMatchObject({
        collection: [{ id: payment.id }],
        pagination: { page: 1, per_page: 5, total: 1 },
        filters: { charge: charge.id },
      })
    })

    it('keeps auth and idempotency keys, and types the body through a schema', async () => {
      const created = await client.charges.create(
        chargeParams(env.eventsUrl, { confirmed: false, metadata: { order_id: orderId('raw') } }),
      )
      const idempotencyKey = `confirm-${created.id}`
      const request = {
        method: 'POST',
        path: `/charges/${encodeURIComponent(created.id)}/confirm`,
        schema: chargeSchema.transform((charge) => ({
          confirmedId: charge.id,
          confirmed: charge.confirmed,
        })),
      } as const
      sent.length = 0
      const first = await client.request(request, { idempotencyKey }).withResponse()
      expect(first.data).toEqual({ confirmedId: created.id, confirmed: true })
      expect(first.status).toBe(201)
      expect(first.idempotentReplayed).toBe(false)
      expect(sent[0]?.headers).toMatchObject({
        authorization: 'Basic [redacted]',
        'idempotency-key': idempotencyKey,
      })
      const again = await client.request(request, { idempotencyKey }).withResponse()
      expect(again.idempotentReplayed).toBe(true)
    })

    it('throws the typed errors: an API error, and a body that fails the schema', async () => {
      await expect(
        client.request({ method: 'GET', path: '/charges/ch_missing' }),
      ).rejects.toBeInstanceOf(NotFoundError)
      const mismatch = client.request({
        method: 'GET',
        path: '/charges',
        schema: z.object({ collection: z.array(z.object({ nope: z.string() })) }),
      })
      await expect(mismatch).rejects.toBeInstanceOf(ResponseValidationError)
      await expect(mismatch).rejects.toThrow('collection.0.nope')
    })

    it('rejects a bad description naming the field, before sending anything', async () => {
      sent.length = 0
      const bad = (request: unknown) =>
        client.request(request as Parameters<ChargekitClient['request']>[0])
      await expect(bad({ method: 'PUT', path: '/charges' })).rejects.toThrow(
        'client.request: method must be one of GET, POST, DELETE (got "PUT").',
      )
      await expect(bad({ method: 'GET', path: 'charges' })).rejects.toThrow(
        'path must start with "/"',
      )
      await expect(bad({ method: 'GET', path: '/charges?page=2' })).rejects.toThrow(
        'the query goes in query',
      )
      await expect(bad({ method: 'GET', path: '/v2/charges' })).rejects.toThrow(
        'pass "/charges", not "/v2/charges"',
      )
      await expect(bad({ method: 'GET', path: '/charges/../events' })).rejects.toThrow(
        '"." or ".." segments',
      )
      await expect(bad({ method: 'GET', path: '/charges', body: {} })).rejects.toThrow(
        'body is sent with POST only, not with GET',
      )
      await expect(bad({ method: 'GET', path: '/charges', schema: 'charge' })).rejects.toThrow(
        'schema must be a zod schema',
      )
      expect(sent).toHaveLength(0)
    })
  })
})
