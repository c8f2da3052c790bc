import type { Product } from '../catalogue/products.js'
import { formatMoney } from '../money.js'
import { checkoutFlows } from '../orders/order.js'
import { checkoutFlowSettings } from '../payments/checkout-flows.js'
import { type FieldErrors, fieldError, type Html, html } from './html.js'

export function productsPage(products: readonly Product[], errors?: FieldErrors): Html {
  return html`<h1>Coffee gear</h1>
    <p class="lead">
      Pick a product and how to pay. Checkout creates a charge in the payment service; the order
      turns <strong>Paid</strong> only when the service's webhook confirms the card.
    </p>
    ${fieldError(errors, 'product')}${fieldError(errors, 'flow')}
    <ul class="products">
      ${products.map((product) => productCard(product))}
    </ul>`
}

function productCard(product: Product): Html {
  return html`<li class="product" data-product="${product.id}">
    <h2>${product.name}</h2>
    <p>${product.blurb}</p>
    <p class="price">${formatMoney(product.priceMinor, product.currency)}</p>
    <form method="post" action="/checkout">
      <input type="hidden" name="product" value="${product.id}" />
      <label>
        Payment
        <select name="flow">
          ${checkoutFlows.map(
            (flow) => html`<option value="${flow}">${checkoutFlowSettings[flow].label}</option>`,
          )}
        </select>
      </label>
      <button type="submit">Buy</button>
    </form>
  </li>`
}
