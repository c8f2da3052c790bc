import { type Context, Hono } from 'hono'
import { minorToDecimalString, parseMajorAmount } from '../money.js'
import { availableActions, type Order } from '../orders/order.js'
import { orderRepository } from '../orders/order-repository.js'
import { replaceStoppedCharge, requestReference } from '../payments/checkout.js'
import { checkoutFlowSettings } from '../payments/checkout-flows.js'
import { customerAnswers, simulateCustomer } from '../payments/customer-simulator.js'
import { recordReturnedInstrument } from '../payments/instrument-return.js'
import { cancel, capture, refund } from '../payments/order-actions.js'
import type { ShopContext } from '../shop-context.js'
import { type OrderPageState, orderPage } from '../views/order-page.js'
import { parseActionForm, parseRefundForm, parseSimulateCustomerForm } from './forms.js'
import { orderJson } from './order-json.js'
import { loadOrderPageState } from './order-page-state.js'
import { type RenderPage, readForm } from './render.js'

/**
 * The order page and what can be done from it. Every POST answers with a redirect back to the
 * order (post/redirect/get), except a refund form with invalid fields, which is shown again with
 * the messages. There is no card route: the card goes from the browser to the service.
 */
export function orderRoutes(context: ShopContext, render: RenderPage) {
  const load = (id: string) => orderRepository.get(context.db, id)
  const show = async (
    c: Context,
    order: Order,
    extra: Partial<OrderPageState> = {},
    status: 200 | 400 = 200,
  ) => {
    const state = await loadOrderPageState(context, order, extra)
    return render(c, `Order ${order.id}`, orderPage(state), status)
  }
  const back = (c: Context, order: Order) => c.redirect(`/orders/${order.id}`, 303)

  return new Hono()
    .get('/orders/:id', async (c) => {
      const order = await load(c.req.param('id'))
      if (!order) return c.notFound()
      // Back from the checkout script or the 3-D Secure page: note the instrument, then show
      // the order at its own address, so a reload does not ask the service again.
      const instrumentId = c.req.query('instrument')
      if (instrumentId === undefined) return show(c, order)
      await recordReturnedInstrument(context, order, instrumentId)
      return back(c, order)
    })
    .get('/api/orders/:id', async (c) => {
      const order = await load(c.req.param('id'))
      if (!order) return c.json({ message: 'No such order.' }, 404)
      return c.json(orderJson(order, await orderRepository.events(context.db, order.id)))
    })
    .post('/orders/:id/new-charge', async (c) => {
      const order = await load(c.req.param('id'))
      if (!order) return c.notFound()
      if (availableActions(order).pay && order.chargeId !== null) {
        await replaceStoppedCharge(context, { ...order, chargeId: order.chargeId })
      }
      return back(c, order)
    })
    .post('/orders/:id/reference', async (c) => {
      // Multibanco: checkout asked for the reference already; this asks again after a failure.
      const order = await load(c.req.param('id'))
      if (!order) return c.notFound()
      const { method } = checkoutFlowSettings[order.flow]
      if (method === 'multibanco' && availableActions(order).pay && order.chargeId !== null) {
        await requestReference(context, { ...order, chargeId: order.chargeId })
      }
      return back(c, order)
    })
    .post('/orders/:id/simulate-customer', async (c) => {
      // Sandbox only: the service's test helpers play the customer who pays outside the shop.
      if (!context.customerSimulator) return c.notFound()
      const order = await load(c.req.param('id'))
      if (!order) return c.notFound()
      const form = parseSimulateCustomerForm(await readForm(c))
      const action = order.customerAction
      if (
        form.ok &&
        order.status === 'awaiting_customer' &&
        order.instrumentId !== null &&
        action !== null &&
        (customerAnswers[action.method] as readonly string[]).includes(form.value.answer)
      ) {
        await simulateCustomer(context, order.instrumentId, form.value.answer)
      }
      return back(c, order)
    })
    .post('/orders/:id/capture', async (c) => {
      const order = await load(c.req.param('id'))
      if (!order) return c.notFound()
      const form = parseActionForm(await readForm(c))
      if (form.ok && availableActions(order).capture && order.instrumentId) {
        await capture(context, order, order.instrumentId, form.value.request_key)
      }
      return back(c, order)
    })
    .post('/orders/:id/cancel', async (c) => {
      const order = await load(c.req.param('id'))
      if (!order) return c.notFound()
      const form = parseActionForm(await readForm(c))
      if (form.ok && availableActions(order).cancel && order.instrumentId) {
        await cancel(context, order, order.instrumentId, form.value.request_key)
      }
      return back(c, order)
    })
    .post('/orders/:id/refund', async (c) => {
      const order = await load(c.req.param('id'))
      if (!order) return c.notFound()
      const actions = availableActions(order)
      if (!actions.refund || order.paymentId === null) return back(c, order)
      const form = parseRefundForm(await readForm(c))
      if (!form.ok) return show(c, order, { refundErrors: form.errors }, 400)
      const amount = parseRefundAmount(form.value.amount, order.currency, actions.refundableMinor)
      if (!amount.ok) return show(c, order, { refundErrors: { amount: [amount.problem] } }, 400)
      await refund(context, order, order.paymentId, amount.minor, form.value.request_key)
      return back(c, order)
    })
}

function parseRefundAmount(
  text: string,
  currency: string,
  refundableMinor: bigint,
): { ok: true; minor: bigint } | { ok: false; problem: string } {
  const minor = parseMajorAmount(text, currency)
  const most = minorToDecimalString(refundableMinor, currency)
  if (minor === undefined || minor <= 0n) {
    return { ok: false, problem: `Enter an amount in ${currency} between 0 and ${most}` }
  }
  if (minor > refundableMinor) {
    return { ok: false, problem: `At most ${most} ${currency} is left to refund on this order` }
  }
  return { ok: true, minor }
}
