import type { ChargekitClient, CreateChargeRequest } from '../../src/index'

/** A card the sandbox authorizes (the amount decides test errors, not the card). */
export const card = {
  name: 'Ada Lovelace',
  number: '4242424242424242',
  expiration_month: 12,
  expiration_year: new Date().getFullYear() + 3,
  cvc: '123',
} as const

let orders = 0

/** A unique order id, so a test can find exactly its own objects. */
export function orderId(prefix = 'order'): string {
  orders += 1
  return `${prefix}-${Date.now().toString(36)}-${orders}`
}

export function chargeParams(
  eventsUrl: string,
  overrides: Partial<CreateChargeRequest> = {},
): CreateChargeRequest {
  return {
    charge_type: 'card_onetime',
    amount: 49.9,
    currency: 'USD',
    events_url: eventsUrl,
    metadata: { order_id: orderId() },
    ...overrides,
  }
}

/** A charge and an authorized, not yet captured instrument for it. */
export async function authorize(
  client: ChargekitClient,
  eventsUrl: string,
  overrides: Partial<CreateChargeRequest> = {},
) {
  const charge = await client.charges.create(
    chargeParams(eventsUrl, { instrument_params: { captured_on_creation: false }, ...overrides }),
  )
  const instrument = await client.instruments.create({ charge: charge.id, ...card })
  return { charge, instrument }
}

/** A charge, its instrument, and a payment capturing the whole amount. */
export async function capture(
  client: ChargekitClient,
  eventsUrl: string,
  overrides: Partial<CreateChargeRequest> = {},
) {
  const { charge, instrument } = await authorize(client, eventsUrl, overrides)
  const payment = await client.payments.create({
    instrument: instrument.id,
    amount: charge.amount,
    currency: charge.currency,
    description: 'Order payment',
  })
  return { charge, instrument, payment }
}
