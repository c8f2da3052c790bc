import { lookupErrorCode } from '@chargekit/errors'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database, SqlParam } from '../src/db/database.js'
import { orderRepository } from '../src/orders/order-repository.js'
import { createOrderUpdates } from '../src/orders/order-updates.js'
import { runScenario } from '../src/scenarios/run-scenario.js'
import type { ShopContext } from '../src/shop-context.js'
import { type Stack, startStack } from './support/stack.js'

describe('runScenario', () => {
  let stack: Stack
  beforeAll(async () => {
    stack = await startStack()
  })
  afterAll(async () => {
    await stack?.close()
  })

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
