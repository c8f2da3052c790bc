import type { IncomingHttpHeaders } from 'node:http'
import { createClient } from '@chargekit/client'
import { type Sandbox, startSandbox } from '@chargekit/sandbox'
import {
  createMemoryDeliveryStore,
  createWebhooks,
  signDelivery,
  WebhooksError,
} from '@chargekit/webhooks'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startNodeServer, type TestServer } from './support/http'

const secret = `whsec_${btoa('signDelivery test signing key')}`

interface Received {
  url: string
  headers: IncomingHttpHeaders
  body: string
}

let sandbox: Sandbox
let receiver: TestServer
const received: Received[] = []

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, timeScale: 0.001, signingSecret: secret })
  receiver = await startNodeServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => {
      body += chunk
    })
    request.on('end', () => {
      received.push({ url: request.url ?? '', headers: request.headers, body })
      response.writeHead(200).end()
    })
  })
})
afterAll(async () => {
  await sandbox?.close()
  await receiver?.close()
})

function sandboxClient() {
  const [account] = sandbox.accounts
  if (!account) throw new Error('the sandbox has no account')
  return createClient({ accountId: account.id, privateKey: account.key, baseUrl: sandbox.url })
}

describe('signDelivery', () => {
  it('builds, byte for byte, the delivery the sandbox sent for the same event', async () => {
    const client = sandboxClient()
    const eventsUrl = `${receiver.url}/hooks?shop=bean`
    const charge = await client.charges.create({
      amount: 12.5,
      currency: 'EUR',
      charge_type: 'card_onetime',
      events_url: eventsUrl,
      metadata: { order_id: 'ord_sign' },
    })
    const deadline = Date.now() + 10_000
    while (!received.some(({ body }) => body.includes(charge.id))) {
      if (Date.now() > deadline) throw new Error('no delivery arrived')
      await new Promise((resolve) => setImmediate(resolve))
    }
    const sent = received.find(({ body }) => body.includes(charge.id)) as Received
    const event = await client.events.retrieve(
      new URL(sent.url, receiver.url).searchParams.get('event') ?? '',
    )

    const built = await signDelivery({
      event,
      url: eventsUrl,
      secret,
      sentAt: new Date(Number(sent.headers['webhook-timestamp']) * 1000),
    })

    expect(built.method).toBe('POST')
    expect(built.url).toBe(new URL(sent.url, receiver.url).href)
    expect(built.body).toBe(sent.body)
    expect(built.headers).toEqual({
      'content-type': 'application/json',
      'webhook-id': sent.headers['webhook-id'],
      'webhook-timestamp': sent.headers['webhook-timestamp'],
      'webhook-signature': sent.headers['webhook-signature'],
    })
  })

  it('is accepted by the reference verifier and by createWebhooks, and runs the handler', async () => {
    const client = sandboxClient()
    const charge = await client.charges.create({
      amount: 3,
      currency: 'EUR',
      charge_type: 'card_onetime',
      events_url: `${receiver.url}/hooks`,
    })
    const [created] = (await client.events.list({ charge: charge.id, type: 'charge.created' }))
      .collection
    if (created === undefined) throw new Error('no event recorded')
    const delivery = await signDelivery({
      event: created,
      url: 'https://shop.example/hooks',
      secret,
    })

    expect(() => new Webhook(secret).verify(delivery.body, delivery.headers)).not.toThrow()
    const seen: string[] = []
    const webhooks = createWebhooks({ client, secret, store: createMemoryDeliveryStore() })
    webhooks.on('charge.created', (event) => {
      seen.push(event.charge.id)
    })
    const answer = await webhooks.handleDelivery(delivery)
    expect(answer.status).toBe(200)
    expect(seen).toEqual([charge.id])

    // One byte more, still the same JSON: the signature no longer matches.
    const tampered = { ...delivery, body: `${delivery.body} ` }
    expect((await webhooks.handleDelivery(tampered)).status).toBe(401)
  })

  it('sends no signature headers without a secret, and refuses a URL that is not http(s)', async () => {
    const event = {
      id: 'ev_unsigned',
      type: 'charge.created',
      charge: {
        id: 'ch_1',
        charge_type: 'card_onetime',
        amount: 1,
        currency: 'EUR',
        metadata: {},
      },
    }
    const delivery = await signDelivery({ event, url: 'http://127.0.0.1:9/hooks' })
    expect(delivery.headers).toEqual({ 'content-type': 'application/json' })
    expect(delivery.url).toBe(
      'http://127.0.0.1:9/hooks?event=ev_unsigned&event_type=charge.created',
    )
    await expect(signDelivery({ event, url: 'mailto:shop@example.com' })).rejects.toThrow(
      WebhooksError,
    )
    await expect(signDelivery({ event, url: '/hooks' })).rejects.toThrow(/absolute http\(s\) URL/)
  })
})
