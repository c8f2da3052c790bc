import {
  errorCategories,
  errorCodesInCategory,
  type TestElement,
  testElements,
} from '@chargekit/errors'
import { stepLabels } from '../payments/decline.js'
import type { ScenarioResult } from '../scenarios/run-scenario.js'
import { declineBox } from './decline-box.js'
import { type FieldErrors, fieldError, type Html, html } from './html.js'

export interface ScenarioPageState {
  result?: ScenarioResult
  errors?: FieldErrors
  selected?: { code?: string; element?: string }
}

const elementHints: Record<TestElement, string> = {
  charge: 'creating the charge',
  instrument: 'authorizing the card',
  payment: 'capturing the payment',
  refund: 'refunding the payment',
  reversal: 'cancelling the authorization',
}

export function scenariosPage(state: ScenarioPageState): Html {
  const selectedCode = state.selected?.code ?? state.result?.code
  const selectedElement = state.selected?.element ?? state.result?.element ?? 'instrument'
  return html`<h1>Test scenarios</h1>
    <p class="lead">
      The service declines on demand: the charge amount encodes an error code and the step that
      fails (<code>XZZZZ.YY</code>). Pick an error and a step; the shop encodes the amount with
      <code>@chargekit/errors</code>, runs the payment up to that step and shows the decline.
    </p>
    <form class="scenario-form" method="post" action="/scenarios">
      <label for="scenario-code">Error</label>
      <select id="scenario-code" name="code" required>
        ${errorCategories.map(
          (category) => html`<optgroup label="${category.prefix} · ${category.label}">
            ${errorCodesInCategory(category.name).map(
              (info) =>
                html`<option value="${info.code}" ${info.code === selectedCode ? 'selected' : ''}>${info.code} — ${info.designation}</option>`,
            )}
          </optgroup>`,
        )}
      </select>
      ${fieldError(state.errors, 'code')}
      <fieldset>
        <legend>Failing step</legend>
        ${testElements.map(
          (element) => html`<label class="radio">
            <input type="radio" name="element" value="${element}" ${element === selectedElement ? 'checked' : ''} />
            ${stepLabels[element]} <span class="muted">(${elementHints[element]})</span>
          </label>`,
        )}
      </fieldset>
      ${fieldError(state.errors, 'element')}
      <button type="submit">Run scenario</button>
    </form>
    ${state.result ? scenarioResult(state.result) : ''}`
}

function scenarioResult(result: ScenarioResult): Html {
  return html`<section class="scenario-result" data-scenario="${result.id}">
    <h2>Result</h2>
    <p>
      Charged <strong class="test-amount">${result.amount} USD</strong> for
      <code>${result.code}</code> at the ${stepLabels[result.element].toLowerCase()} step.
      <a href="/orders/${result.orderId}">Open the order</a> to see its lifecycle events.
    </p>
    <ol class="steps">
      ${result.steps.map(
        (step) => html`<li class="step-${step.outcome}">
          ${step.outcome === 'ok' ? '✓' : '✗'} ${stepLabels[step.step]}
        </li>`,
      )}
    </ol>
    ${
      result.decline
        ? declineBox(result.decline)
        : html`<p class="note">No decline: every step succeeded.</p>`
    }
  </section>`
}
