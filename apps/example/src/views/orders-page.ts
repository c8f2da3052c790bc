import { formatMoney } from '../money.js'
import type { Order } from '../orders/order.js'
import { formatTime, statusBadge } from './format.js'
import { type Html, html } from './html.js'

export function ordersPage(orders: readonly Order[]): Html {
  if (orders.length === 0) {
    return html`<h1>Orders</h1><p>No orders yet. <a href="/">Buy something</a>.</p>`
  }
  return html`<h1>Orders</h1>
    <table class="orders">
      <thead><tr><th>Order</th><th>Item</th><th>Amount</th><th>Status</th><th>Created</th></tr></thead>
      <tbody>
        ${orders.map(
          (order) => html`<tr>
            <td><a href="/orders/${order.id}">${order.id}</a></td>
            <td>${order.description}</td>
            <td class="amount">${formatMoney(order.amountMinor, order.currency)}</td>
            <td>${statusBadge(order.status)}</td>
            <td>${formatTime(order.createdAt)}</td>
          </tr>`,
        )}
      </tbody>
    </table>`
}
