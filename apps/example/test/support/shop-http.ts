import { expect } from 'vitest'

/** The shop driven over HTTP the way a browser does it: form posts, redirects, pages. */
export function shopHttp(shopUrl: string) {
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
    async checkout(product: string, flow: 'pay' | 'authorize' | 'three_ds') {
      const response = await post('/checkout', { product, flow })
      expect(response.status).toBe(303)
      const location = response.headers.get('location') ?? ''
      expect(location).toMatch(/^\/orders\/ord_/)
      return location.slice('/orders/'.length)
    },

    async payWithCard(orderId: string, card: Partial<Record<string, string>> = {}) {
      return post(`/orders/${orderId}/pay`, {
        request_key: await this.requestKey(orderId),
        name: 'Ada Lovelace',
        number: '4242 4242 4242 4242',
        expiration_month: '12',
        expiration_year: String(new Date().getUTCFullYear() + 2),
        cvc: '123',
        ...card,
      } as Record<string, string>)
    },

    async order(orderId: string): Promise<OrderJson> {
      const response = await fetch(new URL(`/api/orders/${orderId}`, shopUrl))
      expect(response.status).toBe(200)
      return (await response.json()) as OrderJson
    },

    /** Polls the order until `done` holds (webhooks arrive asynchronously); fails after 20 s. */
    async waitForOrder(orderId: string, done: (order: OrderJson) => boolean): Promise<OrderJson> {
      const deadline = Date.now() + 20_000
      for (;;) {
        const order = await this.order(orderId)
        if (done(order)) return order
        if (Date.now() > deadline) {
          throw new Error(
            `order ${orderId} never reached the expected state: ${JSON.stringify(order)}`,
          )
        }
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
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
  failure: { step: string; code: string | null; description: string | null } | null
  version: number
  events: { id: string; type: string; object_id: string | null; status_after: string }[]
}
