import { Hono } from 'hono'
import { findProduct, products } from '../catalogue/products.js'
import { orderRepository } from '../orders/order-repository.js'
import { checkout } from '../payments/checkout.js'
import type { ShopContext } from '../shop-context.js'
import { ordersPage } from '../views/orders-page.js'
import { productsPage } from '../views/products-page.js'
import { parseCheckoutForm } from './forms.js'
import { type RenderPage, readForm } from './render.js'

/** The product list, checkout and the list of orders. */
export function shopRoutes(context: ShopContext, render: RenderPage) {
  // The ways to pay the service offers: when it cannot say, the page offers every way the
  // product's currency allows, and the service answers a checkout it cannot take.
  const offeredChargeTypes = () =>
    context.browserCheckout.paymentMethods().then(
      (methods) => methods.chargeTypes,
      () => undefined,
    )
  return new Hono()
    .get('/', async (c) => render(c, 'Shop', productsPage(products, await offeredChargeTypes())))
    .post('/checkout', async (c) => {
      const form = parseCheckoutForm(await readForm(c))
      if (!form.ok) {
        const page = productsPage(products, await offeredChargeTypes(), form.errors)
        return render(c, 'Shop', page, 400)
      }
      const product = findProduct(form.value.product)
      if (!product) return c.notFound()
      const { order } = await checkout(
        context,
        {
          productId: product.id,
          description: product.name,
          amountMinor: product.priceMinor,
          currency: product.currency,
        },
        form.value.flow,
      )
      return c.redirect(`/orders/${order.id}`, 303)
    })
    .get('/orders', async (c) =>
      render(c, 'Orders', ordersPage(await orderRepository.recent(context.db, 50))),
    )
}
