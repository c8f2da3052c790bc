import { eventTypeLabel } from '@chargekit/schemas'
import { formatMoney, minorToDecimalString } from '../money.js'
import { availableActions, isFinalStatus, type Order, statusLabels } from '../orders/order.js'
import type { OrderEventRecord } from '../orders/order-repository.js'
import { checkoutFlowSettings } from '../payments/checkout-flows.js'
import { explainFailure } from '../payments/decline.js'
import { declineBox } from './decline-box.js'
import { cardLabel, formatTime, statusBadge } from './format.js'
import { type FieldErrors, fieldError, type Html, html, invalidAttrs } from './html.js'

export interface OrderPageState {
  order: Order
  events: readonly OrderEventRecord[]
  /** A fresh random key per render: the forms send it back as their idempotency key. */
  requestKey: string
  cardErrors?: FieldErrors
  /** What the customer typed, to show again after a validation error. Never the number or CVC. */
  cardInput?: { name?: string; expiration_month?: string; expiration_year?: string }
  refundErrors?: FieldErrors
}

export function orderPage(state: OrderPageState): Html {
  const { order } = state
  return html`<p><a href="/orders">← All orders</a></p>
    <div
      id="order-live"
      data-order="${order.id}"
      data-version="${order.version}"
      data-final="${String(isFinalStatus(order.status))}"
    >
      ${orderPanel(state)}
    </div>`
}

/** The part of the order page that live updates replace (sent over server-sent events). */
export function orderPanel(state: OrderPageState): Html {
  const { order, events } = state
  const actions = availableActions(order)
  return html`<h1>${order.description}</h1>
    <p class="order-summary">
      <span class="amount">${formatMoney(order.amountMinor, order.currency)}</span>
      ${statusBadge(order.status)}
      <span class="flow">${checkoutFlowSettings[order.flow].label}</span>
    </p>
    ${statusNote(order)}
    ${order.failure ? declineBox(explainFailure(order.failure)) : ''}
    ${actions.pay ? cardForm(state) : ''}
    ${actions.capture || actions.cancel ? authorizedActions(state) : ''}
    ${actions.refund ? refundForm(state, actions.refundableMinor) : ''}
    ${details(order)}
    <h2>Lifecycle events received</h2>
    ${
      events.length === 0
        ? html`<p class="muted">None yet.</p>`
        : html`<ol class="timeline">
            ${events.map(
              (event) => html`<li data-event-type="${event.eventType}">
                <code>${event.eventType}</code> ${eventTypeLabel(event.eventType)}
                <span class="muted">→ ${statusLabels[event.statusAfter]} · ${formatTime(event.receivedAt)}</span>
              </li>`,
            )}
          </ol>`
    }`
}

function statusNote(order: Order): Html | '' {
  switch (order.status) {
    case 'processing':
      return html`<p class="note waiting" aria-live="polite">
        Waiting for the payment service to confirm the card… this page updates by itself.
      </p>`
    case 'paid':
      return html`<p class="note success">Thank you! The payment is confirmed.</p>`
    case 'authorized':
      return html`<p class="note">The amount is held on the card. Capture it to get paid, or cancel.</p>`
    case 'payment_failed':
      return html`<p class="note">
        The capture was declined, but the amount is still held on the card. Try the capture again,
        or cancel to release it.
      </p>`
    case 'failed':
      return html`<p class="note">The order could not be charged. Start a new order to try again.</p>`
    default:
      return ''
  }
}

function cardForm(state: OrderPageState): Html {
  const errors = state.cardErrors
  const input = state.cardInput ?? {}
  return html`<form class="card-form" method="post" action="/orders/${state.order.id}/pay" novalidate>
    <h2>Pay by card</h2>
    <input type="hidden" name="request_key" value="${state.requestKey}" />
    <p class="muted">Test card: 4242 4242 4242 4242, any future expiry date, any CVC.</p>
    <label>Name on card
      <input name="name" autocomplete="cc-name" value="${input.name ?? ''}" required ${invalidAttrs(errors, 'name')} />
    </label>
    ${fieldError(errors, 'name')}
    <label>Card number
      <input name="number" inputmode="numeric" autocomplete="cc-number" required ${invalidAttrs(errors, 'number')} />
    </label>
    ${fieldError(errors, 'number')}
    <div class="row">
      <label>Month
        <input name="expiration_month" inputmode="numeric" placeholder="MM" autocomplete="cc-exp-month"
          value="${input.expiration_month ?? ''}" ${invalidAttrs(errors, 'expiration_month')} />
      </label>
      <label>Year
        <input name="expiration_year" inputmode="numeric" placeholder="YYYY" autocomplete="cc-exp-year"
          value="${input.expiration_year ?? ''}" ${invalidAttrs(errors, 'expiration_year')} />
      </label>
      <label>CVC
        <input name="cvc" inputmode="numeric" autocomplete="cc-csc" ${invalidAttrs(errors, 'cvc')} />
      </label>
    </div>
    ${fieldError(errors, 'expiration_month')}${fieldError(errors, 'expiration_year')}${fieldError(errors, 'cvc')}
    ${fieldError(errors, 'request_key')}
    <button type="submit">Pay ${formatMoney(state.order.amountMinor, state.order.currency)}</button>
  </form>`
}

function authorizedActions(state: OrderPageState): Html {
  const { order, requestKey } = state
  const verb = order.status === 'payment_failed' ? 'Retry capture of' : 'Capture'
  return html`<div class="actions">
    <form method="post" action="/orders/${order.id}/capture">
      <input type="hidden" name="request_key" value="${requestKey}" />
      <button type="submit">${verb} ${formatMoney(order.amountMinor, order.currency)}</button>
    </form>
    <form method="post" action="/orders/${order.id}/cancel">
      <input type="hidden" name="request_key" value="${requestKey}" />
      <button type="submit" class="secondary">Cancel order</button>
    </form>
  </div>`
}

function refundForm(state: OrderPageState, refundableMinor: bigint): Html {
  const { order, requestKey } = state
  return html`<form class="refund-form" method="post" action="/orders/${order.id}/refund" novalidate>
    <h2>Refund</h2>
    <input type="hidden" name="request_key" value="${requestKey}" />
    <label>Amount (${order.currency}, up to ${formatMoney(refundableMinor, order.currency)})
      <input name="amount" inputmode="decimal" value="${minorToDecimalString(refundableMinor, order.currency)}"
        ${invalidAttrs(state.refundErrors, 'amount')} />
    </label>
    ${fieldError(state.refundErrors, 'amount')}${fieldError(state.refundErrors, 'request_key')}
    <button type="submit">Refund</button>
  </form>`
}

function details(order: Order): Html {
  return html`<h2>Details</h2>
    <dl class="details">
      <dt>Order</dt><dd><code>${order.id}</code></dd>
      <dt>Charge</dt><dd><code>${order.chargeId ?? '—'}</code></dd>
      <dt>Card</dt><dd>${cardLabel(order.cardBrand, order.cardLast4)}</dd>
      <dt>Authorization</dt><dd><code>${order.instrumentId ?? '—'}</code></dd>
      <dt>Payment</dt><dd><code>${order.paymentId ?? '—'}</code></dd>
      <dt>Captured</dt><dd>${formatMoney(order.capturedMinor, order.currency)}</dd>
      <dt>Refunded</dt><dd>${formatMoney(order.refundedMinor, order.currency)}</dd>
      <dt>Updated</dt><dd>${formatTime(order.updatedAt)}</dd>
    </dl>`
}
