import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient } from '@chargekit/client'
import { startSandbox } from '@chargekit/sandbox'
import { eventually } from '@chargekit/sandbox/testing'
import {
  createMemoryDeliveryStore,
  createNodeMiddleware,
  createWebhooks,
  signDelivery,
} from '@chargekit/webhooks'
import { expect, it } from 'vitest'

// The README's example, with assertions where it logs: a fresh sandbox signs its deliveries, and
// a receiver given the account's secret takes them and refuses a forged one.
it("a receiver built as the README shows takes the sandbox's signed deliveries and refuses forged ones", async () => {
  const sandbox = await startSandbox({ port: 0, timeScale: 0.001 })
  const [account] = sandbox.accounts
  if (account?.signingSecret === undefined) throw new Error('a fresh sandbox signs its deliveries')
  const client = createClient({
    accountId: account.id,
    privateKey: account.privateKey,
    baseUrl: sandbox.url,
  })
  const webhooks = createWebhooks({
    client,
    secret: account.signingSecret,
    store: createMemoryDeliveryStore(),
  })
  const paid: string[] = []
  const refused: string[] = []
  webhooks.on('instrument.authorized', async (event) => {
    const { metadata } = event.charge
    paid.push(String(typeof metadata === 'object' ? metadata.order_id : metadata))
  })
  webhooks.onError((error) => refused.push(error.code))
  const server = createServer(createNodeMiddleware(webhooks, { path: '/webhooks' }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const eventsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
  try {
    const charge = await client.charges.create({
      charge_type: 'card_onetime',
      amount: 25,
      currency: 'EUR',
      events_url: eventsUrl,
      metadata: { order_id: 'order-1001' },
    })
    await client.instruments.create({
      charge: charge.id,
      name: 'Ada Lovelace',
      number: '4242424242424242',
      expiration_month: 12,
      expiration_year: 2040,
      cvc: '123',
    })
    await eventually(
      async () => {
        const events = await client.events.list({ charge: charge.id }).toArray({ limit: 100 })
        return events.length === 5 && events.every((event) => event.result_status === 200)
      },
      { what: 'every event of the charge delivered and acknowledged with 200' },
    )
    expect(paid).toEqual(['order-1001'])
    expect(refused).toEqual([])

    // A genuine event of the account, delivered again by someone without the secret.
    const [authorized] = (await client.events.list({ type: 'instrument.authorized' })).collection
    if (authorized === undefined) throw new Error('no instrument.authorized event')
    const guessed = await signDelivery({
      event: authorized,
      url: eventsUrl,
      secret: `whsec_${btoa('a guessed secret, 24 byte')}`,
    })
    const unsigned = await signDelivery({ event: authorized, url: eventsUrl })
    for (const forged of [guessed, unsigned]) {
      const answer = await fetch(forged.url, {
        method: forged.method,
        headers: forged.headers,
        body: forged.body,
      })
      expect(answer.status).toBe(401)
      expect(await answer.json()).toMatchObject({ error: { code: 'invalid_signature' } })
    }
    expect(refused).toEqual(['invalid_signature', 'invalid_signature'])
    expect(paid).toEqual(['order-1001'])
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await sandbox.close()
  }
})
