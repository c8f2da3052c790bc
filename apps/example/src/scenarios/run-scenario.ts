import { type ErrorCode, formatTestAmount, type TestElement } from '@chargekit/errors'
import { parseMajorAmount } from '../money.js'
import type { PaymentStep } from '../orders/order.js'
import { newId, orderRepository } from '../orders/order-repository.js'
import { checkout } from '../payments/checkout.js'
import { type Decline, explainFailure } from '../payments/decline.js'
import { cancel, capture, refund } from '../payments/order-actions.js'
import { payWithCard } from '../payments/pay-with-card.js'
import type { ShopContext } from '../shop-context.js'

export const scenarioCurrency = 'USD'

/** A card that authorizes on any processor; the amount alone decides the outcome. */
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
 * The spec's error testing by amount, driven like a real integration: the charge amount encodes
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
  const amountMinor = parseMajorAmount(amount, scenarioCurrency)
  if (amountMinor === undefined) throw new Error(`Test amount ${amount} is not a USD amount.`)
  const order = await checkout(
    context,
    {
      productId: 'test-scenario',
      description: `Test scenario ${code} at the ${element}`,
      amountMinor,
      currency: scenarioCurrency,
    },
    'authorize',
  )
  const steps = await walkTo(context, order, element)
  const after = await orderRepository.get(context.db, order.id)
  const declined = steps.at(-1)?.outcome === 'declined'
  const result: ScenarioResult = {
    id: newId('scn'),
    code,
    element,
    amount,
    orderId: order.id,
    steps,
    decline: declined && after?.failure ? explainFailure(after.failure) : null,
  }
  await context.db.query(
    `INSERT INTO scenario_runs (id, code, element, order_id, result) VALUES ($1, $2, $3, $4, $5)`,
    [result.id, code, element, order.id, JSON.stringify(result)],
  )
  return result
}

async function walkTo(
  context: ShopContext,
  order: Awaited<ReturnType<typeof checkout>>,
  element: TestElement,
): Promise<ScenarioStep[]> {
  const steps: ScenarioStep[] = []
  const record = (step: PaymentStep, ok: boolean) => {
    steps.push({ step, outcome: ok ? 'ok' : 'declined' })
    return ok && step !== element
  }
  if (!record('charge', order.chargeId !== null) || order.chargeId === null) return steps
  const key = newId('scn')
  const card = await payWithCard(context, { ...order, chargeId: order.chargeId }, testCard, key)
  if (!record('instrument', card.outcome === 'submitted') || card.outcome !== 'submitted') {
    return steps
  }
  if (element === 'reversal') {
    record('reversal', (await cancel(context, order, card.instrumentId, key)).ok)
    return steps
  }
  const payment = await capture(context, order, card.instrumentId, key)
  if (!record('payment', payment.ok) || !payment.ok) return steps
  record('refund', (await refund(context, order, payment.value.id, order.amountMinor, key)).ok)
  return steps
}

export async function findScenarioRun(
  context: Pick<ShopContext, 'db'>,
  id: string,
): Promise<ScenarioResult | undefined> {
  const [row] = await context.db.query<{ result: ScenarioResult }>(
    'SELECT result FROM scenario_runs WHERE id = $1',
    [id],
  )
  return row?.result
}
