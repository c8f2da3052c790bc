import type { Charge, Instrument } from '@chargekit/schemas'
import { expandPath, instrumentsCompleteChallenge } from '@chargekit/schemas/operations'
import { escapeHtml } from '../html'

const styles = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2433}
main{max-width:26rem;margin:10vh auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002}
h1{font-size:1.25rem;margin:0 0 1rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}
dt{color:#5b6477}dd{margin:0}form{display:inline}button{font:inherit;padding:.6rem 1.2rem;margin:1rem .5rem 0 0;border-radius:8px;border:1px solid #1d2433;cursor:pointer}
.approve{background:#1d6b3a;color:#fff;border-color:#1d6b3a}.fail{background:#fff}p.note{color:#5b6477;font-size:.875rem}`

function page(title: string, content: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${styles}</style></head><body><main>${content}</main></body></html>`
}

/** The customer's 3-D Secure challenge: two buttons that post the choice with the token. */
export function challengePage(charge: Charge, instrument: Instrument, token: string): string {
  const action = expandPath(instrumentsCompleteChallenge.path, { instrumentId: instrument.id })
  const button = (outcome: string, label: string, className: string) =>
    `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="token" value="${escapeHtml(token)}"><input type="hidden" name="outcome" value="${outcome}"><button class="${className}" type="submit">${label}</button></form>`
  // A card has 3-D Secure; another method (PayPal) its own approval page.
  const isCard = instrument.params.last_4_digits !== undefined
  const title = isCard ? '3-D Secure verification' : `${charge.charge_type_label} approval`
  const paidWith = isCard
    ? `<dt>Card</dt><dd>${escapeHtml(`${instrument.params.brand} •••• ${instrument.params.last_4_digits}`)}</dd>`
    : `<dt>Pay with</dt><dd>${escapeHtml(charge.charge_type_label)}</dd>`
  const standsIn = isCard
    ? 'the card issuer’s 3-D Secure challenge'
    : 'the payment method’s approval page'
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><dl><dt>Amount</dt><dd>${escapeHtml(`${charge.amount} ${charge.currency}`)}</dd>${paidWith}</dl>` +
      button('authorize', isCard ? 'Authorize' : 'Approve payment', 'approve') +
      button('fail', isCard ? 'Fail authentication' : 'Cancel', 'fail') +
      `<p class="note">chargekit sandbox: this page stands in for ${standsIn}.</p>`,
  )
}

/** Shown after the choice when the charge has no redirect_url. */
export function resultPage(instrument: Instrument): string {
  const authorized = instrument.status === 'authorized'
  return page(
    authorized ? 'Card verified' : 'Verification failed',
    `<h1>${authorized ? 'Card verified' : 'Verification failed'}</h1><p>Instrument ${escapeHtml(instrument.id)} is ${escapeHtml(instrument.status)}.</p><p class="note">You can close this page.</p>`,
  )
}

export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`)
}
