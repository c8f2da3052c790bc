import { eventTypeLabel } from '@chargekit/schemas'
import { formatMoney, minorToDecimalString } from '../money.js'
import { availableActions, isFinalStatus, type Order, statusLabels } from '../orders/order.js'
import type { OrderEventRecord } from '../orders/order-repository.js'
import type { CardField } from '../payments/card-fields.js'
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
  /**
   * What the card form needs while the order awaits a card; null when the service could not
   * give its fields.
   */
  cardForm?: CardFormView | null
  refundErrors?: FieldErrors
}

export interface CardFormView {
  fields: readonly CardField[]
  publicKey: string
  serviceUrl: string
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

/** Labels and browser autofill hints of the fields the service's schema usually asks for. */
const knownFields: Record<string, { label: string; autocomplete: string; placeholder?: string }> = {
  name: { label: 'Name on card', autocomplete: 'cc-name' },
  number: { label: 'Card number', autocomplete: 'cc-number' },
  expiration_month: { label: 'Month', autocomplete: 'cc-exp-month', placeholder: 'MM' },
  expiration_year: { label: 'Year', autocomplete: 'cc-exp-year', placeholder: 'YYYY' },
  cvc: { label: 'CVC', autocomplete: 'cc-csc' },
}

/**
 * The card form, drawn from the service's instrument schema. Its inputs have no `name`, and the
 * form neither an action nor a method: the checkout script sends the card to the service, and
 * without the script a submit sends the shop nothing.
 */
function cardForm(state: OrderPageState): Html {
  const { order, cardForm: form } = state
  if (!form) {
    return html`<section class="card-form" role="alert">
      <h2>Pay by card</h2>
      <p>The payment form could not be loaded from the payment service. Reload the page to try again.</p>
    </section>`
  }
  return html`<form
    class="card-form"
    data-card-form
    data-charge="${order.chargeId ?? ''}"
    data-public-key="${form.publicKey}"
    data-service-url="${form.serviceUrl}"
    data-return-url="/orders/${order.id}"
    data-new-charge-url="/orders/${order.id}/new-charge"
    novalidate
  >
    <h2>Pay by card</h2>
    <p class="muted">
      Test card: 4242 4242 4242 4242, any future expiry date, any CVC. The card goes straight to
      the payment service; this shop never sees its number.
    </p>
    <div class="card-fields">${form.fields.map(cardInput)}</div>
    <section class="decline" data-card-decline data-kept-on-update="card-decline" role="alert" hidden></section>
    <p class="muted" data-card-status aria-live="polite"></p>
    <button type="submit">Pay ${formatMoney(order.amountMinor, order.currency)}</button>
  </form>`
}

function cardInput(field: CardField): Html {
  const known = knownFields[field.name]
  const numeric = field.type === 'integer' || field.digitsOnly
  return html`<label class="field-${field.name}">${known?.label ?? field.name.replaceAll('_', ' ')}
      <input
        data-field="${field.name}"
        data-type="${field.type}"
        data-digits="${String(field.digitsOnly)}"
        autocomplete="${known?.autocomplete ?? 'off'}"
        ${numeric ? html`inputmode="numeric"` : ''}
        ${known?.placeholder ? html`placeholder="${known.placeholder}"` : ''}
        ${field.maxLength ? html`maxlength="${field.maxLength}"` : ''}
        ${field.required ? html`required` : ''}
      />
    </label>
    <p class="field-error" data-error-for="${field.name}" hidden></p>`
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
