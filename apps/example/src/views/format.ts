import { type Order, type OrderStatus, statusLabels } from '../orders/order.js'
import { checkoutFlowSettings } from '../payments/checkout-flows.js'
import { type Html, html } from './html.js'

export function statusBadge(status: OrderStatus): Html {
  return html`<span class="badge badge-${status}" data-status="${status}">${statusLabels[status]}</span>`
}

export function formatTime(date: Date): string {
  return `${date.toISOString().replace('T', ' ').slice(0, 19)} UTC`
}

/** How the order was paid, as far as the shop knows: the card's last digits, the MB WAY phone… */
export function paymentLabel(
  order: Pick<Order, 'flow' | 'cardBrand' | 'cardLast4' | 'customerAction'>,
): string {
  const action = order.customerAction
  if (action?.method === 'mbway') return `MB WAY ${action.phoneNumber}`
  if (action?.method === 'multibanco')
    return `Multibanco reference ${groupDigits(action.reference)}`
  if (checkoutFlowSettings[order.flow].method !== 'card')
    return checkoutFlowSettings[order.flow].label
  if (!order.cardLast4) return '—'
  return `${order.cardBrand ? `${order.cardBrand} ` : ''}•••• ${order.cardLast4}`
}

/** `123456789` → `123 456 789`: how Portuguese banks and ATMs print a Multibanco reference. */
export function groupDigits(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, ' ')
}
