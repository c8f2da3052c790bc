import { randomBytes } from 'node:crypto'
import fc from 'fast-check'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDeliveryEngine, type DeliveryEngine } from '../src/delivery/index'
import { createMemoryWorkQueue } from '../src/storage/memory-work-queue'
import { type ReceivedDelivery, type Receiver, startReceiver } from '../src/testing/index'

// Verified with `standardwebhooks`, the reference implementation: an independent check of our
// node:crypto signer.
const encodedSecret = `whsec_${randomBytes(24).toString('base64')}`
const rawSecret = 'raw-secret-with-no-prefix'

let merchant: Receiver
beforeAll(async () => {
  merchant = await startReceiver(() => 200)
})
afterAll(() => merchant.stop())

async function deliverSigned(
  secret: string,
  eventId: string,
  eventType = 'payment.success',
  accountId = 'acct_sig',
): Promise<ReceivedDelivery> {
  const engine: DeliveryEngine = createDeliveryEngine({
    queue: createMemoryWorkQueue(),
    loadJob: async () => undefined,
    signingSecrets: new Map([['acct_sig', secret]]),
    onAttempt: () => {},
  })
  try {
    // A manual attempt: signed like every automatic one, and sent at once.
    await engine.redeliver({
      accountId,
      eventId,
      eventType,
      chargeId: `ch_${eventId}`,
      eventsUrl: merchant.url,
      body: JSON.stringify({ id: eventId, type: eventType }),
    })
    await merchant.until((received) => received.some(({ id }) => id === eventId))
    return merchant.received.find(({ id }) => id === eventId) as ReceivedDelivery
  } finally {
    await engine.close()
  }
}

function signatureHeaders(delivery: ReceivedDelivery) {
  return {
    'webhook-id': String(delivery.headers['webhook-id']),
    'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
    'webhook-signature': String(delivery.headers['webhook-signature']),
  }
}

describe('Standard Webhooks signing', () => {
  it("signs each account's deliveries with its own secret, and none of an account without one", async () => {
    const unsigned = await deliverSigned(
      encodedSecret,
      'ev_other_account',
      'payment.success',
      'acct_other',
    )
    expect(unsigned.headers['webhook-signature']).toBeUndefined()
    expect(unsigned.headers['webhook-id']).toBeUndefined()
  })

  it('signs with a whsec_ secret so standardwebhooks verifies it', async () => {
    const delivery = await deliverSigned(encodedSecret, 'ev_signed_1')
    const headers = signatureHeaders(delivery)

    expect(headers['webhook-id']).toBe('ev_signed_1')
    expect(headers['webhook-timestamp']).toMatch(/^\d+$/)
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300)
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
    expect(new Webhook(encodedSecret).verify(delivery.body, headers)).toEqual({
      id: 'ev_signed_1',
      type: 'payment.success',
    })
  })

  it('fails verification when the body, id or timestamp is altered, or the secret differs', async () => {
    const delivery = await deliverSigned(encodedSecret, 'ev_signed_2')
    const headers = signatureHeaders(delivery)
    const webhook = new Webhook(encodedSecret)
    const timestamp = Number(headers['webhook-timestamp'])

    expect(() =>
      webhook.verify(delivery.body.replace('ev_signed_2', 'ev_signed_3'), headers),
    ).toThrow()
    expect(() => webhook.verify(`${delivery.body} `, headers)).toThrow()
    expect(() => webhook.verify(delivery.body, { ...headers, 'webhook-id': 'ev_other' })).toThrow()
    expect(() =>
      webhook.verify(delivery.body, { ...headers, 'webhook-timestamp': String(timestamp - 1) }),
    ).toThrow()
    const otherSecret = `whsec_${randomBytes(24).toString('base64')}`
    expect(() => new Webhook(otherSecret).verify(delivery.body, headers)).toThrow()
  })

  it('uses any other secret string as raw key bytes', async () => {
    const delivery = await deliverSigned(rawSecret, 'ev_signed_raw')
    const headers = signatureHeaders(delivery)

    expect(new Webhook(rawSecret, { format: 'raw' }).verify(delivery.body, headers)).toEqual({
      id: 'ev_signed_raw',
      type: 'payment.success',
    })
  })

  it('produces verifiable signatures for any event id and type', async () => {
    const safeText = fc.stringMatching(/^[A-Za-z0-9_.:-]{1,40}$/)
    await fc.assert(
      fc.asyncProperty(safeText, safeText, async (suffix, eventType) => {
        const eventId = `ev_${suffix}_${randomBytes(4).toString('hex')}`
        const delivery = await deliverSigned(encodedSecret, eventId, eventType)
        const verified = new Webhook(encodedSecret).verify(
          delivery.body,
          signatureHeaders(delivery),
        )
        expect(verified).toEqual({ id: eventId, type: eventType })
        expect(() =>
          new Webhook(encodedSecret).verify(`${delivery.body}\n`, signatureHeaders(delivery)),
        ).toThrow()
      }),
      { numRuns: 25 },
    )
  })
})
