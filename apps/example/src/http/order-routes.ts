import { type Context, Hono } from 'hono'
import { minorToDecimalString, parseMajorAmount } from '../money.js'
import { availableActions, type Order } from '../orders/order.js'
import { newId, orderRepository } from '../orders/order-repository.js'
import { cancel, capture, refund } from '../payments/order-actions.js'
import { payWithCard } from '../payments/pay-with-card.js'
import type { ShopContext } from '../shop-context.js'
import { type OrderPageState, orderPage } from '../views/order-page.js'
import { parseActionForm, parseCardForm, parseRefundForm } from './forms.js'
import { orderJson } from './order-json.js'
import { type RenderPage, readForm } from './render.js'

/**
 * The order page and what can be done from it. Every POST answers with a redirect back to the
 * order (post/redirect/get), except a form with invalid fields, which is shown again with the
 * messages (never with the card number or CVC filled back in).
 */
export function orderRoutes(context: ShopContext, render: RenderPage) {
  const load = (id: string) => orderRepository.get(context.db, id)
  const show = async (
    c: Context,
    order: Order,
    extra: Partial<OrderPageState> = {},
    status: 200 | 400 | 409 = 200,
  ) => {
    const events = await orderRepository.events(context.db, order.id)
    const state = { order, events, requestKey: newId('req'), ...extra }
    return render(c, `Order ${order.id}`, orderPage(state), status)
  }
  const back = (c: Context, order: Order) => c.redirect(`/orders/${order.id}`, 303)

  return new Hono()
    .get('/orders/:id', async (c) => {
      const order = await load(c.req.param('id'))
      return order ? show(c, order) : c.notFound()
    })
    .get('/api/orders/:id', async (c) => {
      const order = await load(c.req.param('id'))
      if (!order) return c.json({ message: 'No such order.' }, 404)
      return c.json(orderJson(order, await orderRepository.events(context.db, order.id)))
    })
    .post('/orders/:id/pay', async (c) => {
      const order = await load(c.req.param('id'))
      if (!order) return c.notFound()
      if (!availableActions(order).pay || order.chargeId === null) return back(c, order)
      const body = await readForm(c)
      const form = parseCardForm(body)
      const key = parseActionForm(body)
      if (!form.ok || !key.ok) {
        const typed = (name: string) => (typeof body[name] === 'string' ? body[name] : '')
        const cardInput = {
          name: typed('name'),
          expiration_month: typed('expiration_month'),
          expiration_year: typed('expiration_year'),
        }
        const cardErrors = { ...(form.ok ? {} : form.errors), ...(key.ok ? {} : key.errors) }
        return show(c, order, { cardErrors, cardInput }, 400)
      }
      const result = await payWithCard(
        context,
        { ...order, chargeId: order.chargeId },
        form.value,
        key.value.request_key,
      )
      return result.outcome === 'redirect' ? c.redirect(result.url, 303) : back(c, order)
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
