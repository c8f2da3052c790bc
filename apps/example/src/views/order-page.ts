import { eventTypeLabel } from '@chargekit/schemas'
import { formatMoney, minorToDecimalString } from '../money.js'
import {
  availableActions,
  type CustomerAction,
  isFinalStatus,
  type Order,
  statusLabels,
} from '../orders/order.js'
import type { OrderEventRecord } from '../orders/order-repository.js'
import { checkoutFlowSettings } from '../payments/checkout-flows.js'
import { customerAnswerLabels, customerAnswers } from '../payments/customer-simulator.js'
import { explainFailure } from '../payments/decline.js'
import type { InstrumentField } from '../payments/payment-methods.js'
import { customerActionPanel } from './customer-action-panel.js'
import { declineBox } from './decline-box.js'
import { formatTime, paymentLabel, statusBadge } from './format.js'
import { type FieldErrors, fieldError, type Html, html, invalidAttrs } from './html.js'
import { testCardsHint } from './test-cards-hint.js'

export interface OrderPageState {
  order: Order
  events: readonly OrderEventRecord[]
  /** A fresh random key per render: the forms send it back as their idempotency key. */
  requestKey: string
  /**
   * What the payment form (a card's, MB WAY's phone number) needs while the order awaits it; null
   * when the service could not give its fields.
   */
  paymentForm?: PaymentFormView | null
  /** Sandbox only: offer to play the customer who pays outside the shop. */
  customerSimulator?: boolean
  refundErrors?: FieldErrors
}

export interface PaymentFormView {
  fields: readonly InstrumentField[]
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
    ${actions.pay ? paymentForm(state) : ''}
    ${
      order.status === 'awaiting_customer' && order.customerAction
        ? awaitingCustomer(state, order.customerAction)
        : ''
    }
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
        Waiting for the payment service to confirm the payment… this page updates by itself.
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
      return html`<p class="note">
        ${order.customerAction?.method === 'mbway' ? 'The payment request was refused in the MB WAY app. ' : ''}The
        order could not be charged. Start a new order to try again.
      </p>`
    case 'expired':
      return html`<p class="note">
        ${
          order.customerAction?.method === 'multibanco'
            ? 'The Multibanco reference expired unpaid.'
            : 'The MB WAY request expired before it was approved.'
        }
        Nothing was charged. Start a new order to buy it.
      </p>`
    default:
      return ''
  }
}

/** Labels and browser autofill hints of the fields the service's schemas usually ask for. */
const knownFields: Record<
  string,
  { label: string; autocomplete: string; inputmode?: string; placeholder?: string }
> = {
  phone_number: {
    label: 'MB WAY phone number',
    autocomplete: 'tel-national',
    inputmode: 'tel',
    placeholder: '912 345 678',
  },
  name: { label: 'Name on card', autocomplete: 'cc-name' },
  number: { label: 'Card number', autocomplete: 'cc-number' },
  expiration_month: { label: 'Month', autocomplete: 'cc-exp-month', placeholder: 'MM' },
  expiration_year: { label: 'Year', autocomplete: 'cc-exp-year', placeholder: 'YYYY' },
  cvc: { label: 'CVC', autocomplete: 'cc-csc' },
}

/**
 * The payment form, drawn from the service's instrument schema for the order's charge type: the
 * card's fields, or the phone number of the customer's MB WAY app. Its inputs have no `name`, and
 * the form neither an action nor a method: the checkout script sends them to the service, and
 * without the script a submit sends the shop nothing. Multibanco asks the customer nothing: the
 * shop gets the reference at checkout, and offers to ask again only after that failed.
 */
function paymentForm(state: OrderPageState): Html {
  const { order, paymentForm: form } = state
  const { method } = checkoutFlowSettings[order.flow]
  if (method === 'multibanco') {
    return html`<form class="payment-form" method="post" action="/orders/${order.id}/reference">
      <h2>Pay with Multibanco</h2>
      <p>The payment reference could not be created. Ask for it again.</p>
      <button type="submit">Get the Multibanco reference</button>
    </form>`
  }
  const title = method === 'mbway' ? 'Pay with MB WAY' : 'Pay by card'
  if (!form) {
    return html`<section class="payment-form" role="alert">
      <h2>${title}</h2>
      <p>The payment form could not be loaded from the payment service. Reload the page to try again.</p>
    </section>`
  }
  const price = formatMoney(order.amountMinor, order.currency)
  return html`<form
    class="payment-form"
    data-payment-form
    data-charge="${order.chargeId ?? ''}"
    data-public-key="${form.publicKey}"
    data-service-url="${form.serviceUrl}"
    data-return-url="/orders/${order.id}"
    data-new-charge-url="/orders/${order.id}/new-charge"
    data-sending="${method === 'mbway' ? 'Sending the request to your MB WAY app…' : 'Sending the card to the payment service…'}"
    novalidate
  >
    <h2>${title}</h2>
    ${
      method === 'mbway'
        ? html`<p class="muted">
            The payment request goes to the MB WAY app of this number; you approve it there. In the
            sandbox, a number starting 91000 approves by itself and 92000 refuses.
          </p>`
        : html`<p class="muted">
              Test card: <code>4242 4242 4242 4242</code> pays and
              <code>4000 0000 0000 0002</code> is declined, with any future expiry date and any
              CVC. The card goes straight to the payment service; this shop never sees its number.
            </p>
            ${testCardsHint()}`
    }
    <div class="${method === 'mbway' ? 'phone-fields' : 'card-fields'}">${form.fields.map(fieldInput)}</div>
    <section class="decline" data-payment-decline data-kept-on-update="payment-decline" role="alert" hidden></section>
    <p class="muted" data-payment-status aria-live="polite"></p>
    <button type="submit">${method === 'mbway' ? `Pay ${price} with MB WAY` : `Pay ${price}`}</button>
  </form>`
}

function fieldInput(field: InstrumentField): Html {
  const known = knownFields[field.name]
  const inputmode =
    known?.inputmode ?? (field.type === 'integer' || field.digitsOnly ? 'numeric' : undefined)
  return html`<label class="field-${field.name}">${known?.label ?? field.title ?? field.name.replaceAll('_', ' ')}
      <input
        data-field="${field.name}"
        data-type="${field.type}"
        data-digits="${String(field.digitsOnly)}"
        autocomplete="${known?.autocomplete ?? 'off'}"
        ${inputmode ? html`inputmode="${inputmode}"` : ''}
        ${field.description ? html`title="${field.description}"` : ''}
        ${known?.placeholder ? html`placeholder="${known.placeholder}"` : ''}
        ${field.maxLength ? html`maxlength="${field.maxLength}"` : ''}
        ${field.required ? html`required` : ''}
      />
    </label>
    <p class="field-error" data-error-for="${field.name}" hidden></p>`
}

/**
 * What the customer must do outside the shop, and — against the sandbox only — buttons that play
 * that customer through its test helpers, called by the shop's server.
 */
function awaitingCustomer(state: OrderPageState, action: CustomerAction): Html {
  const { order } = state
  return html`${customerActionPanel(action)}
    ${
      state.customerSimulator
        ? html`<form class="sandbox-aid" method="post" action="/orders/${order.id}/simulate-customer">
            <p>
              <strong>Sandbox only — simulate the customer.</strong> The shop asks the sandbox's
              test helpers to answer as the customer would; a real payment service has none.
            </p>
            ${customerAnswers[action.method].map(
              (answer) =>
                html`<button type="submit" class="secondary" name="answer" value="${answer}">${customerAnswerLabels[answer]}</button> `,
            )}
          </form>`
        : ''
    }`
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
      <dt>Method</dt><dd>${paymentLabel(order)}</dd>
      <dt>Authorization</dt><dd><code>${order.instrumentId ?? '—'}</code></dd>
      <dt>Payment</dt><dd><code>${order.paymentId ?? '—'}</code></dd>
      <dt>Captured</dt><dd>${formatMoney(order.capturedMinor, order.currency)}</dd>
      <dt>Refunded</dt><dd>${formatMoney(order.refundedMinor, order.currency)}</dd>
      <dt>Updated</dt><dd>${formatTime(order.updatedAt)}</dd>
    </dl>`
}
