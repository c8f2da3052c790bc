// A merchant's payment with a client that a third-party generator wrote from docs/openapi.json
// (openapi-typescript's types, openapi-fetch's calls): charge, instrument, payment, refund. The
// contract check type-checks it with `tsc --strict` against freshly generated types and runs it
// against a sandbox. Nothing here comes from chargekit's own packages.
import createClient from 'openapi-fetch'
import type { paths } from './openapi'

export interface Merchant {
  baseUrl: string
  accountId: string
  privateKey: string
  eventsUrl: string
}

/** The answer's data, or an error naming the call and what the service said. */
function expectData<T>(call: string, answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data === undefined) {
    throw new Error(`${call} answered ${answer.response.status}: ${JSON.stringify(answer.error)}`)
  }
  return answer.data
}

export async function payAndRefund(merchant: Merchant) {
  const client = createClient<paths>({
    baseUrl: merchant.baseUrl,
    headers: { authorization: `Basic ${btoa(`${merchant.accountId}:${merchant.privateKey}`)}` },
  })
  const charge = expectData(
    'create charge',
    await client.POST('/v2/charges', {
      body: {
        charge_type: 'card_onetime',
        amount: 42.1,
        currency: 'EUR',
        events_url: merchant.eventsUrl,
        metadata: { order_id: 'generated-1' },
        instrument_params: { captured_on_creation: false },
      },
      params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
    }),
  )
  const instrument = expectData(
    'create instrument',
    await client.POST('/v2/instruments', {
      body: {
        charge: charge.id,
        name: 'Ada Lovelace',
        number: '4242424242424242',
        expiration_month: 12,
        expiration_year: new Date().getUTCFullYear() + 2,
        cvc: '123',
      },
    }),
  )
  if (instrument.status !== 'authorized') throw new Error(`instrument is ${instrument.status}`)
  const payment = expectData(
    'capture',
    await client.POST('/v2/payments', {
      body: { instrument: instrument.id, amount: 42.1, currency: 'EUR' },
    }),
  )
  const refund = expectData(
    'refund',
    await client.POST('/v2/payments/{id}/refund', {
      params: { path: { id: payment.id } },
      body: { amount: 10, description: 'One item returned' },
    }),
  )
  const refunded = expectData(
    'retrieve payment',
    await client.GET('/v2/payments/{id}', { params: { path: { id: payment.id } } }),
  )
  const declined = await client.GET('/v2/charges/{id}', { params: { path: { id: 'ch_missing' } } })
  return { charge, instrument, payment, refund, refunded, missing: declined.error }
}
