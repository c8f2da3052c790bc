import { formatMoney } from '../money.js'
import type { CustomerAction } from '../orders/order.js'
import { groupDigits } from './format.js'
import { type Html, html } from './html.js'
import { timeLeft } from './time-left.js'

/** Dates as a customer in Portugal reads them: `28/11/2026, 14:05`, Lisbon time. */
const lisbonTime = new Intl.DateTimeFormat('pt-PT', {
  dateStyle: 'short',
  timeStyle: 'short',
  timeZone: 'Europe/Lisbon',
})

/**
 * What the customer must do to pay outside the shop, while the order waits for the webhook:
 * approve the request in the MB WAY app before the time runs out (the checkout script counts it
 * down), or pay the Multibanco reference — entity, reference in groups of three digits, amount
 * in euros the Portuguese way — before it expires.
 */
export function customerActionPanel(action: CustomerAction): Html {
  if (action.method === 'mbway') {
    return html`<section class="customer-action" data-customer-action="mbway" aria-live="polite">
      <h2>Approve the payment in your MB WAY app</h2>
      <p>
        The payment request went to the MB WAY app of
        <strong data-phone-number>${action.phoneNumber}</strong>. Open the app and approve it; this
        page updates by itself.
      </p>
      <p>
        Time left:
        <time data-countdown datetime="${action.expiresAt}">${timeLeft(action.expiresAt, Date.now())}</time>
      </p>
    </section>`
  }
  return html`<section class="customer-action" data-customer-action="multibanco">
    <h2>Pay with Multibanco</h2>
    <p>
      At any Multibanco ATM or in your home banking, choose <em>Pagamentos de serviços</em> and
      enter:
    </p>
    <dl class="reference">
      <dt>Entity</dt><dd data-entity>${action.entity}</dd>
      <dt>Reference</dt><dd data-reference>${groupDigits(action.reference)}</dd>
      <dt>Amount</dt><dd data-amount>${formatMoney(action.amountMinor, action.currency, 'pt-PT')}</dd>
      <dt>Pay by</dt>
      <dd><time data-expires-at datetime="${action.expiresAt}">${lisbonTime.format(new Date(action.expiresAt))}</time> (Lisbon)</dd>
    </dl>
    <p class="muted">This page updates by itself once the payment arrives.</p>
  </section>`
}
