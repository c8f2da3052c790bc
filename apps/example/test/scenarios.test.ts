import {
  type ErrorCode,
  errorCodes,
  lookupErrorCode,
  type TestElement,
  testElements,
} from '@chargekit/errors'
import type { SqlParam } from '@chargekit/sandbox'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../src/db/open-database.js'
import { orderRepository } from '../src/orders/order-repository.js'
import { createOrderUpdates } from '../src/orders/order-updates.js'
import { runScenario } from '../src/scenarios/run-scenario.js'
import type { ShopContext } from '../src/shop-context.js'
import { shopHttp } from './support/shop-http.js'
import { type Stack, startStack } from './support/stack.js'

/** One code per element, from different categories, including the worked examples of the test-amount encoding. */
const examples: Record<TestElement, ErrorCode> = {
  charge: '02.03.0000',
  instrument: '06.02.0000',
  payment: '03.03.0001',
  refund: '04.02.0000',
  reversal: '05.04.0001',
}

/** Where the order stands once the scenario's decline happened (and the webhooks arrived). */
const statusAfter: Record<TestElement, string> = {
  charge: 'failed',
  instrument: 'awaiting_payment',
  payment: 'authorized',
  refund: 'paid',
  reversal: 'authorized',
}

let stack: Stack
let http: ReturnType<typeof shopHttp>
beforeAll(async () => {
  stack = await startStack()
  http = shopHttp(stack)
})
afterAll(async () => {
  await stack?.close()
})

// Every run has an order and a charge of its own: the tests go at once.
describe.concurrent('test scenarios panel', () => {
  async function run(code: string, element: string) {
    const response = await http.post('/scenarios', { code, element })
    expect(response.status).toBe(303)
    const location = response.headers.get('location') ?? ''
    expect(location).toMatch(/^\/scenarios\/scn_/)
    const { html } = await http.page(location)
    const orderId = /href="\/orders\/(ord_[^"]+)"/.exec(html)?.[1] ?? ''
    return { html, orderId }
  }

  it('offers every catalogue code and every element', async ({ expect }) => {
    const { html } = await http.page('/scenarios')
    for (const info of errorCodes) expect(html).toContain(`value="${info.code}"`)
    for (const element of testElements) expect(html).toContain(`value="${element}"`)
  })

  it.for(testElements)(
    'a test error at the %s shows the right decline',
    async (element, { expect }) => {
      const code = examples[element]
      const info = lookupErrorCode(code)
      const { html, orderId } = await run(code, element)
      expect(html).toContain(`data-code="${code}"`)
      expect(html).toContain(`data-step="${element}"`)
      expect(html).toContain(escapeHtml(info?.designation ?? '?'))
      expect(html).toContain(escapeHtml(info?.description ?? '?'))
      expect(html).toContain(`data-retryable="${info?.retryable}"`)
      // The test-amount encoding: code without dots, leading zeros dropped, .10 … .50.
      const cents = { charge: '10', instrument: '20', payment: '30', refund: '40', reversal: '50' }[
        element
      ]
      expect(html).toContain(`${Number(code.replaceAll('.', ''))}.${cents} USD`)

      const order = await http.waitForOrder(
        orderId,
        (o) => o.status === statusAfter[element] && o.failure?.step === element,
      )
      expect(order.failure).toMatchObject({ step: element, code })
    },
  )

  it('the worked example 06.02.0000 at the instrument charges 6020000.20', async ({ expect }) => {
    const { html, orderId } = await run('06.02.0000', 'instrument')
    expect(html).toContain('6020000.20 USD')
    const order = await http.order(orderId)
    expect(order.amount).toBe('6020000.20')
    const charge = await stack.client.charges.retrieve(order.charge_id ?? '')
    expect(charge.amount).toBe(6020000.2)
  })

  it('every catalogue code ends in its decline (elements in rotation)', async ({ expect }) => {
    // 40 runs, at once: each code once, the failing step rotating so every element sees 8 codes.
    await Promise.all(
      errorCodes.map(async (info, index) => {
        const element = testElements[index % testElements.length] ?? 'instrument'
        const { html } = await run(info.code, element)
        expect(html, `${info.code} at ${element}`).toContain(`data-code="${info.code}"`)
        expect(html, `${info.code} at ${element}`).toContain(`data-step="${element}"`)
      }),
    )
  })

  it('explains a bad choice instead of running anything', async ({ expect }) => {
    const response = await http.post('/scenarios', { code: '12.34.5678', element: 'teapot' })
    expect(response.status).toBe(400)
    const html = await response.text()
    expect(html).toContain('id="code-error"')
    expect(html).toContain('id="element-error"')
  })
})

describe('runScenario', () => {
  it('shows the decline the service answered, even if the order changes right after', async () => {
    // Stands in for a webhook handled the moment a step's decline is recorded, which leaves the
    // order without it (as a late payment.success or instrument.authorized once did): each
    // notification about the order starts one, and every later statement of the run waits for it.
    let lateWebhook: Promise<void> = Promise.resolve()
    const clearFailure = async (orderId: string) => {
      const order = await orderRepository.get(stack.database, orderId)
      if (order) await orderRepository.applyChange(stack.database, order, { failure: null })
    }
    const db: Database = {
      driver: stack.database.driver,
      transaction: (work) => stack.database.transaction(work),
      close: () => stack.database.close(),
      execute: (script) => stack.database.execute(script),
      async query<Row extends object>(sql: string, params?: readonly SqlParam[]) {
        await lateWebhook
        return stack.database.query<Row>(sql, params)
      },
    }
    const updates = createOrderUpdates()
    const context: ShopContext = {
      ...stack.context,
      db,
      updates: {
        subscribe: updates.subscribe,
        publish(orderId) {
          updates.publish(orderId)
          lateWebhook = clearFailure(orderId)
        },
      },
    }

    const result = await runScenario(context, '03.03.0001', 'payment')
    expect(result.steps).toEqual([
      { step: 'charge', outcome: 'ok' },
      { step: 'instrument', outcome: 'ok' },
      { step: 'payment', outcome: 'declined' },
    ])
    const info = lookupErrorCode('03.03.0001')
    expect(result.decline).toMatchObject({
      step: 'payment',
      code: '03.03.0001',
      designation: info?.designation,
      description: info?.description,
      retryable: info?.retryable,
    })
  })
})

function escapeHtml(text: string) {
  return text.replaceAll('&', '&amp;').replaceAll("'", '&#39;').replaceAll('"', '&quot;')
}
