import type { Product } from '../catalogue/products.js'
import { formatMoney } from '../money.js'
import { checkoutFlowSettings, flowsFor } from '../payments/checkout-flows.js'
import { type FieldErrors, fieldError, type Html, html } from './html.js'

/**
 * The products, each with the ways to pay it: those its currency allows (MB WAY and Multibanco
 * take euros) among the charge types the service offers (`undefined`: not known).
 */
export function productsPage(
  products: readonly Product[],
  offeredChargeTypes: ReadonlySet<string> | undefined,
  errors?: FieldErrors,
): Html {
  return html`<h1>Coffee gear</h1>
    <p class="lead">
      Pick a product and how to pay. Checkout creates a charge in the payment service; the order
      turns <strong>Paid</strong> only when the service's webhook confirms the payment. Prices in
      euros can also be paid with MB WAY or a Multibanco reference.
    </p>
    ${fieldError(errors, 'product')}${fieldError(errors, 'flow')}
    <ul class="products">
      ${products.map((product) => productCard(product, offeredChargeTypes))}
    </ul>`
}

function productCard(product: Product, offeredChargeTypes: ReadonlySet<string> | undefined): Html {
  return html`<li class="product" data-product="${product.id}">
    <h2>${product.name}</h2>
    <p>${product.blurb}</p>
    <p class="price">${formatMoney(product.priceMinor, product.currency)}</p>
    <form method="post" action="/checkout">
      <input type="hidden" name="product" value="${product.id}" />
      <label>
        Payment
        <select name="flow">
          ${flowsFor(product.currency, offeredChargeTypes).map(
            (flow) => html`<option value="${flow}">${checkoutFlowSettings[flow].label}</option>`,
          )}
        </select>
      </label>
      <button type="submit">Buy</button>
    </form>
  </li>`
}
