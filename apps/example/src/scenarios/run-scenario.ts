import { type ErrorCode, formatTestAmount, type TestElement } from '@chargekit/errors'
import { parseMajorAmount } from '../money.js'
import type { Order, OrderFailure, PaymentStep } from '../orders/order.js'
import { newId, orderRepository } from '../orders/order-repository.js'
import { type CheckoutResult, checkout } from '../payments/checkout.js'
import { type Decline, explainFailure, failureFromError } from '../payments/decline.js'
import { type ActionResult, cancel, capture, refund } from '../payments/order-actions.js'
import type { ShopContext } from '../shop-context.js'
import { scenarioRunRepository } from './scenario-run-repository.js'

/** Scenario amounts are USD: two decimals, the decimals a test amount uses to name its element. */
const currency = 'USD'

/**
 * A card that authorizes on any processor; the amount alone decides the outcome. Scenarios are
 * the merchant's own test bench against the sandbox, so the shop sends this test card itself;
 * a customer's card never reaches the shop.
 */
const testCard = {
  name: 'Test Scenario',
  number: '4242424242424242',
  expiration_month: 12,
  expiration_year: new Date().getUTCFullYear() + 3,
  cvc: '123',
}

export interface ScenarioStep {
  step: PaymentStep
  outcome: 'ok' | 'declined'
}

export interface ScenarioResult {
  id: string
  code: ErrorCode
  element: TestElement
  /** The charge amount that encodes the error, as sent: '6020000.20'. */
  amount: string
  orderId: string
  steps: ScenarioStep[]
  decline: Decline | null
}

/**
 * The service's error testing by amount, driven like a real integration: the charge amount encodes
 * the catalogue code and the element (@chargekit/errors), then the shop walks the lifecycle up to
 * that element — charge, card authorization, capture, refund or cancellation — and records the
 * decline the service answers with.
 */
export async function runScenario(
  context: ShopContext,
  code: ErrorCode,
  element: TestElement,
): Promise<ScenarioResult> {
  const amount = formatTestAmount(code, element)
  const amountMinor = parseMajorAmount(amount, currency)
  if (amountMinor === undefined) {
    throw new Error(`Test amount ${amount} is not a ${currency} amount.`)
  }
  const checkedOut = await checkout(
    context,
    {
      productId: 'test-scenario',
      description: `Test scenario ${code} at the ${element}`,
      amountMinor,
      currency,
    },
    'authorize',
  )
  const walk = await walkTo(context, checkedOut, element)
  const result: ScenarioResult = {
    id: newId('scn'),
    code,
    element,
    amount,
    orderId: checkedOut.order.id,
    steps: walk.steps,
    // The decline the service answered, not the order's copy of it: a webhook of an earlier
    // step handled meanwhile may already have changed the order.
    decline: walk.failure ? explainFailure(walk.failure) : null,
  }
  await scenarioRunRepository.save(context.db, result)
  return result
}

interface Walk {
  steps: ScenarioStep[]
  /** The decline of the last step; null when every step went through. */
  failure: OrderFailure | null
}

async function walkTo(
  context: ShopContext,
  { order, failure: chargeFailure }: CheckoutResult,
  element: TestElement,
): Promise<Walk> {
  const walk: Walk = { steps: [], failure: null }
  /** Records a step's outcome; true when the walk goes on to the next step. */
  const record = (step: PaymentStep, failure: OrderFailure | null) => {
    walk.steps.push({ step, outcome: failure ? 'declined' : 'ok' })
    walk.failure = failure
    return failure === null && step !== element
  }
  if (!record('charge', chargeFailure) || order.chargeId === null) return walk
  const key = newId('scn')
  const card = await authorizeTestCard(context, order, order.chargeId, key)
  if (!record('instrument', failureOf(card)) || !card.ok) return walk
  if (element === 'reversal') {
    record('reversal', failureOf(await cancel(context, order, card.value, key)))
    return walk
  }
  const payment = await capture(context, order, card.value, key)
  if (!record('payment', failureOf(payment)) || !payment.ok) return walk
  const refunded = await refund(context, order, payment.value.id, order.amountMinor, key)
  record('refund', failureOf(refunded))
  return walk
}

/** Creates the instrument with the test card; its id, or the decline as recorded on the order. */
async function authorizeTestCard(
  context: ShopContext,
  order: Order,
  chargeId: string,
  key: string,
): Promise<ActionResult<string>> {
  try {
    const instrument = await context.client.instruments.create(
      { charge: chargeId, ...testCard },
      { idempotencyKey: `scenario-card-${key}` },
    )
    await orderRepository.recordCardAttempt(context.db, order.id, {
      instrumentId: instrument.id,
      brand: instrument.params?.brand ?? null,
      last4: instrument.params?.last_4_digits ?? null,
    })
    context.updates.publish(order.id)
    return { ok: true, value: instrument.id }
  } catch (error) {
    const failure = failureFromError('instrument', error)
    await orderRepository.recordFailure(context.db, order.id, failure)
    context.updates.publish(order.id)
    return { ok: false, failure }
  }
}

function failureOf(result: ActionResult<unknown>): OrderFailure | null {
  return result.ok ? null : result.failure
}
