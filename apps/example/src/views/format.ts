import { type OrderStatus, statusLabels } from '../orders/order.js'
import { type Html, html } from './html.js'

export function statusBadge(status: OrderStatus): Html {
  return html`<span class="badge badge-${status}" data-status="${status}">${statusLabels[status]}</span>`
}

export function formatTime(date: Date): string {
  return `${date.toISOString().replace('T', ' ').slice(0, 19)} UTC`
}

export function cardLabel(brand: string | null, last4: string | null): string {
  if (!last4) return '—'
  return `${brand ? `${brand} ` : ''}•••• ${last4}`
}
