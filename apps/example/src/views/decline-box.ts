import { type Decline, stepLabels } from '../payments/decline.js'
import { type Html, html } from './html.js'

/** The explanation of a decline: what failed, the code, what it means, and whether to retry. */
export function declineBox(decline: Decline): Html {
  if (decline.code === null) {
    // No catalogue code: the service was unreachable or refused the request itself.
    return html`<section class="decline" role="alert" data-code="" data-step="${decline.step}">
      <h3>${stepLabels[decline.step]} not completed</h3>
      <p>${decline.designation ?? 'The payment service could not complete the request.'}</p>
    </section>`
  }
  const retry =
    decline.retryable === null
      ? 'Unknown'
      : decline.retryable
        ? 'Yes — the same attempt may succeed later'
        : 'No — the cause must be fixed first'
  return html`<section class="decline" role="alert" data-code="${decline.code ?? ''}" data-step="${decline.step}">
    <h3>Declined: ${stepLabels[decline.step]}</h3>
    <dl>
      <dt>Code</dt>
      <dd class="decline-code">${decline.code ?? '—'}</dd>
      <dt>Designation</dt>
      <dd class="decline-designation">${decline.designation ?? '—'}</dd>
      <dt>Description</dt>
      <dd class="decline-description">${decline.description ?? '—'}</dd>
      ${decline.category ? html`<dt>Category</dt><dd>${decline.category}</dd>` : ''}
      <dt>Retry may succeed?</dt>
      <dd class="decline-retry" data-retryable="${String(decline.retryable)}">${retry}</dd>
    </dl>
  </section>`
}
