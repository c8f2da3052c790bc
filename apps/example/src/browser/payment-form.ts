// Runs in the customer's browser (bundled by src/http/checkout-script.ts): the card — or the MB WAY
// phone number — goes from the order page's form straight to the payment service with the
// account's public key. The shop's server never sees the card number, the CVC or the whole phone
// number; it only learns the instrument's id afterwards.
import {
  ApiError,
  type CreateInstrumentRequest,
  createBrowserClient,
  PaymentError,
  ValidationError,
} from '@chargekit/client/browser'
import { tooManyTries } from '../orders/order.js'
import { timeLeft } from '../views/time-left.js'

// Delegated: live updates replace the order panel, form included.
document.addEventListener('submit', (event) => {
  const form = event.target
  if (!(form instanceof HTMLFormElement) || !form.matches('form[data-payment-form]')) return
  event.preventDefault()
  void sendPaymentDetails(form)
})

// The time left to approve an MB WAY request, on order pages. Looked up on every tick: live
// updates replace the order panel, countdown included.
if (document.getElementById('order-live')) {
  setInterval(() => {
    for (const countdown of document.querySelectorAll<HTMLTimeElement>('time[data-countdown]')) {
      countdown.textContent = timeLeft(countdown.dateTime, Date.now())
    }
  }, 1000)
}

async function sendPaymentDetails(submitted: HTMLFormElement) {
  let form = submitted
  const { charge, publicKey, serviceUrl, returnUrl, newChargeUrl, sending } = form.dataset
  if (!charge || !publicKey || !serviceUrl || !returnUrl || !newChargeUrl) return
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')
  if (button?.disabled) return
  if (button) button.disabled = true
  showProblems(form, undefined)
  showStatus(form, sending ?? '')
  const client = createBrowserClient({ publicKey, baseUrl: serviceUrl })
  try {
    // The request is whatever the charge type's schema asked for: a card, or a phone number.
    const instrument = await client.instruments.create({
      ...readFields(form),
      charge,
    } as CreateInstrumentRequest)
    // 3-D Secure: the issuer's page sends the customer back to the order with the instrument id.
    // MB WAY waits in the app: the order page shows the request (its redirect has no url).
    const next =
      instrument.status === 'pending' && instrument.redirect?.url
        ? instrument.redirect.url
        : `${returnUrl}?instrument=${encodeURIComponent(instrument.id)}`
    location.assign(next)
  } catch (error) {
    // Authorized, but the capture on creation was declined: the funds are held, and the order
    // page offers what comes next (capture again or cancel) once the webhook arrives.
    const authorized = error instanceof PaymentError ? authorizedInstrumentOf(error) : undefined
    if (authorized) {
      location.assign(`${returnUrl}?instrument=${encodeURIComponent(authorized)}`)
      return
    }
    // A live update may have swapped the form while the card was on its way: answer in the
    // one on the page now.
    form = document.querySelector<HTMLFormElement>('form[data-payment-form]') ?? form
    if (button) button.disabled = false
    showStatus(form, '')
    if (error instanceof ApiError && error.code === tooManyTries) {
      showDecline(
        form,
        error,
        'This payment takes no more cards; a new one is being started. Check the card details, or use another card.',
      )
      await startNewCharge(newChargeUrl, returnUrl)
      return
    }
    showProblems(form, error)
  }
}

/** The instrument of a declined capture: the 402 names the payment and its parents. */
function authorizedInstrumentOf(error: PaymentError): string | undefined {
  return error.element === 'payment' ? error.ids.instrument : undefined
}

/** Each field as the schema types it: integers as numbers, digits without spaces or dashes. */
function readFields(form: HTMLFormElement): Record<string, string | number> {
  const fields: Record<string, string | number> = {}
  for (const input of form.querySelectorAll<HTMLInputElement>('input[data-field]')) {
    const name = input.dataset.field as string
    let value = input.value.trim()
    if (input.dataset.digits === 'true') value = value.replace(/[\s-]/g, '')
    // Anything else goes as typed: the service names the field that is wrong.
    fields[name] =
      input.dataset.type === 'integer' && /^\d{1,9}$/.test(value) ? Number(value) : value
  }
  return fields
}

function showProblems(form: HTMLFormElement, error: unknown) {
  for (const input of form.querySelectorAll<HTMLInputElement>('input[data-field]')) {
    const message = form.querySelector<HTMLElement>(`[data-error-for="${input.dataset.field}"]`)
    const problems =
      error instanceof ValidationError ? error.parameters[input.dataset.field as string] : undefined
    if (problems?.length) input.setAttribute('aria-invalid', 'true')
    else input.removeAttribute('aria-invalid')
    if (message) {
      message.textContent = problems?.join(' ') ?? ''
      message.hidden = !problems?.length
    }
  }
  const decline = form.querySelector<HTMLElement>('[data-payment-decline]')
  if (!decline) return
  decline.hidden = true
  if (error === undefined || error instanceof ValidationError) return
  if (error instanceof PaymentError) {
    showDecline(
      form,
      error,
      error.retryable
        ? 'Nothing was charged. Try again in a moment, or use another card.'
        : 'Nothing was charged. Check the card details, or use another card.',
    )
  } else {
    decline.hidden = false
    decline.replaceChildren(
      'The payment service could not be reached. Nothing was charged: check your connection and try again.',
    )
  }
}

function showDecline(form: HTMLFormElement, error: ApiError, nextStep: string) {
  const decline = form.querySelector<HTMLElement>('[data-payment-decline]')
  if (!decline) return
  const designation = document.createElement('strong')
  designation.className = 'decline-designation'
  designation.textContent = error.designation ?? 'Declined'
  const code = document.createElement('code')
  code.className = 'decline-code'
  code.textContent = error.code ?? ''
  const next = document.createElement('p')
  next.className = 'decline-next'
  next.textContent = nextStep
  decline.replaceChildren(designation, ' ', code, next)
  decline.dataset.code = error.code ?? ''
  decline.hidden = false
}

function showStatus(form: HTMLFormElement, text: string) {
  const status = form.querySelector<HTMLElement>('[data-payment-status]')
  if (status) status.textContent = text
}

/** Asks the shop for a new charge (it checks with the service that the old one is stopped). */
async function startNewCharge(newChargeUrl: string, returnUrl: string) {
  await fetch(newChargeUrl, { method: 'POST' })
  location.assign(returnUrl)
}
