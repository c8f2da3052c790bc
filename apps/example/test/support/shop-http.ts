import { setTimeout } from 'node:timers/promises'
import { ApiError, type Instrument, PaymentError } from '@chargekit/client'
import { type CreateInstrumentRequest, createBrowserClient } from '@chargekit/client/browser'
import { expect } from 'vitest'
import type { CheckoutFlow } from '../../src/orders/order.js'
import type { Stack } from './stack.js'

/** The test card every helper pays with unless told otherwise. */
export const testCard = {
  name: 'Ada Lovelace',
  number: '4242424242424242',
  expiration_month: 12,
  expiration_year: new Date().getUTCFullYear() + 2,
  cvc: '123',
} as const

/** How a card sent the way the checkout script sends it ended. */
export type CardOutcome =
  /**
   * Authorized (its capture may have been declined): the customer is back on the order page
   * with the instrument named.
   */
  | { outcome: 'returned'; instrumentId: string; response: Response }
  /** 3-D Secure: the customer is sent to the issuer's page first. */
  | { outcome: 'redirect'; instrument: Instrument; url: string }
  /** The service refused the card; the error is what the script shows in the form. */
  | { outcome: 'refused'; error: ApiError }

/**
 * The shop driven over HTTP the way a browser does it: form posts, redirects, pages — and the
 * card sent straight to the service with the public key, as the order page's script does.
 */
export function shopHttp(stack: Pick<Stack, 'shop' | 'browserCheckout'>) {
  const shopUrl = stack.shop.url
  const browser = createBrowserClient({
    publicKey: stack.browserCheckout.publicKey,
    baseUrl: stack.browserCheckout.serviceUrl,
  })
  const post = (path: string, fields: Record<string, string>) =>
    fetch(new URL(path, shopUrl), {
      method: 'POST',
      body: new URLSearchParams(fields),
      redirect: 'manual',
    })

  return {
    post,
    async page(path: string) {
      const response = await fetch(new URL(path, shopUrl))
      return { status: response.status, html: await response.text() }
    },

    /** Buys a product; returns the new order's id (from the redirect to its page). */
    async checkout(product: string, flow: CheckoutFlow) {
      const response = await post('/checkout', { product, flow })
      expect(response.status).toBe(303)
      const location = response.headers.get('location') ?? ''
      expect(location).toMatch(/^\/orders\/ord_/)
      return location.slice('/orders/'.length)
    },

    /**
     * What the order page's script does, from Node: the card goes to the service with the public
     * key, then the customer comes back to the order page with the instrument's id.
     */
    async payWithCard(
      orderId: string,
      card: Partial<Omit<CreateInstrumentRequest, 'charge'>> = {},
    ): Promise<CardOutcome> {
      const { charge_id: charge } = await this.order(orderId)
      expect(charge).not.toBeNull()
      const backWith = async (instrumentId: string): Promise<CardOutcome> => {
        const response = await fetch(
          new URL(`/orders/${orderId}?instrument=${instrumentId}`, shopUrl),
          { redirect: 'manual' },
        )
        return { outcome: 'returned', instrumentId, response }
      }
      try {
        const instrument = (await browser.instruments.create({
          ...testCard,
          ...card,
          charge: charge ?? '',
        })) as Instrument
        if (instrument.status === 'pending' && instrument.redirect?.url) {
          return { outcome: 'redirect', instrument, url: instrument.redirect.url }
        }
        return await backWith(instrument.id)
      } catch (error) {
        if (!(error instanceof ApiError)) throw error
        // A declined capture on creation: the authorization stands, as the script sees it.
        const metadata = (error.body as { metadata?: { instrument?: unknown } }).metadata
        if (error instanceof PaymentError && error.element === 'payment') {
          if (typeof metadata?.instrument === 'string') return backWith(metadata.instrument)
        }
        return { outcome: 'refused', error }
      }
    },

    async order(orderId: string): Promise<OrderJson> {
      const response = await fetch(new URL(`/api/orders/${orderId}`, shopUrl))
      expect(response.status).toBe(200)
      return (await response.json()) as OrderJson
    },

    /**
     * Resolves once `done` holds for the order (webhooks arrive asynchronously). Between reads it
     * listens to the order's live stream, as an open order page does: the shop answers there as
     * soon as the order moves past the version read. Fails at once when the order is final
     * without `done` holding, and after 20 s otherwise.
     */
    async waitForOrder(orderId: string, done: (order: OrderJson) => boolean): Promise<OrderJson> {
      const deadline = AbortSignal.timeout(20_000)
      let order = await this.order(orderId)
      while (!done(order)) {
        const fail = (why: string) =>
          new Error(`order ${orderId} ${why} the expected state: ${JSON.stringify(order)}`)
        try {
          const live = new URL(`/orders/${orderId}/live?version=${order.version}`, shopUrl)
          const stream = await fetch(live, { signal: deadline })
          // 204: the order is final and unchanged since the version read. Its status stays, but
          // the service's last events may still add lines (instrument.invalid after a
          // cancellation), which the shop no longer pushes: read it again shortly.
          if (stream.status === 204) await setTimeout(50, undefined, { signal: deadline })
          else await nextUpdate(stream)
        } catch (error) {
          if (deadline.aborted) throw fail('did not reach, within 20 s,')
          throw error
        }
        order = await this.order(orderId)
      }
      return order
    },

    /** The idempotency key a freshly rendered order page puts in its forms. */
    async requestKey(orderId: string) {
      const { html } = await this.page(`/orders/${orderId}`)
      const key = /name="request_key" value="([^"]+)"/.exec(html)?.[1]
      expect(key).toBeDefined()
      return key as string
    },
  }
}
/** Reads a live stream until its first order update (or its end), then lets it go. */
async function nextUpdate(stream: Response) {
  expect(stream.status).toBe(200)
  const reader = (stream.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let text = ''
  try {
    while (!text.includes('event: order')) {
      const { value, done } = await reader.read()
      if (done) return
      text += decoder.decode(value, { stream: true })
    }
  } finally {
    await reader.cancel()
  }
}

export interface OrderJson {
  id: string
  status: string
  flow: string
  amount: string
  currency: string
  captured: string
  refunded: string
  charge_id: string | null
  instrument_id: string | null
  payment_id: string | null
  card: { brand: string | null; last4: string } | null
  customer_action: Record<string, string> | null
  failure: { step: string; code: string | null; description: string | null } | null
  version: number
  events: { id: string; type: string; object_id: string | null; status_after: string }[]
}
