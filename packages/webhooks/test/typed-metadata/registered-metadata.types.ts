/**
 * Compile-time checks of a registered metadata type, run by `pnpm typecheck` (`tsc -p` on this
 * folder): an app that augments `Register` gets its metadata type on charges and in every event
 * its handlers receive, and `charges.create` requires it. Each `@ts-expect-error` fails the build
 * if the line it guards ever stops being an error.
 */
import { createClient } from '@chargekit/client'
import { expectTypeOf } from 'vitest'
import { type ChargeMetadata, createWebhooks, type EventOf } from '../../src/index'

declare module '../../src/index' {
  interface Register {
    chargeMetadata: { order_id: string; customer_tier?: 'gold' | 'silver' }
  }
}

type OrderMetadata = { order_id: string; customer_tier?: 'gold' | 'silver' }

export function handlersGetTheRegisteredType(): void {
  const client = createClient({ accountId: 'acct_1', privateKey: 'sk_test_1234' })
  const webhooks = createWebhooks({ client })
  webhooks.on('payment.success', (event, { compact }) => {
    expectTypeOf(event.charge.metadata).toEqualTypeOf<OrderMetadata>()
    const orderId: string = event.charge.metadata.order_id
    void orderId
    expectTypeOf(compact?.charge.metadata).toEqualTypeOf<OrderMetadata | undefined>()
  })
  webhooks.onAny((event) => {
    if (event.type === 'refund.success') {
      expectTypeOf(event.charge.metadata.customer_tier).toEqualTypeOf<
        'gold' | 'silver' | undefined
      >()
    }
  })
  expectTypeOf<
    EventOf<'instrument.authorized'>['charge']['metadata']
  >().toEqualTypeOf<OrderMetadata>()
  expectTypeOf<ChargeMetadata>().toEqualTypeOf<OrderMetadata>()
}

export async function theClientReadsAndWritesIt(): Promise<void> {
  const client = createClient({ accountId: 'acct_1', privateKey: 'sk_test_1234' })
  const base = {
    charge_type: 'card_onetime',
    amount: 10,
    currency: 'EUR',
    events_url: 'https://shop.example/hooks',
  }
  const charge = await client.charges.create({ ...base, metadata: { order_id: 'A-1' } })
  expectTypeOf(charge.metadata).toEqualTypeOf<OrderMetadata>()
  const event = await client.events.retrieve('ev_1')
  if (event.type === 'payment.success') expectTypeOf(event.charge.metadata.order_id).toBeString()

  // @ts-expect-error the registered type is required
  await client.charges.create(base)
  // @ts-expect-error order_id is a string
  await client.charges.create({ ...base, metadata: { order_id: 1001 } })
  const nested = { order_id: 'A-1', gift: { wrapped: true } }
  // @ts-expect-error metadata values are flat: no nested objects
  await client.charges.create({ ...base, metadata: nested })
}
