import { lookupErrorCode } from '@chargekit/errors'
import { testCards } from '@chargekit/sandbox/test-cards'
import { type Html, html } from './html.js'

const testCardsPage = 'https://github.com/chargekit/chargekit/blob/main/docs/test-cards.md'

/**
 * Beside the card form: the sandbox's test cards, each with the outcome it brings and the
 * catalogue code the order will show, read from the sandbox's own table.
 */
export function testCardsHint(): Html {
  return html`<details class="test-cards" data-test-cards>
    <summary>Test cards: pick the outcome</summary>
    <table>
      <thead>
        <tr><th>Card number</th><th>Outcome</th><th>Code</th></tr>
      </thead>
      <tbody>
        ${testCards.map(
          (card) => html`<tr data-test-card="${card.number}">
            <td><code>${card.number.replace(/(\d{4})(?=\d)/g, '$1 ')}</code></td>
            <td>${card.summary}</td>
            <td>${card.codes.map((code) => html`<abbr title="${lookupErrorCode(code)?.designation ?? ''}">${code}</abbr> `)}</td>
          </tr>`,
        )}
      </tbody>
    </table>
    <p class="muted">
      In the sandbox, on every card channel. The 3-D Secure cards reach their page in the
      3-D Secure checkout, and are declined (3DS Required) in the others.
      <a href="${testCardsPage}">What each test card does</a>
    </p>
  </details>`
}
