import {
  encodeTestAmount,
  formatTestAmount,
  type TestAmountCode,
  type TestElement,
} from '@chargekit/errors'
import type { EventType } from '@chargekit/schemas'
import type { TriggerFlow } from './trigger-flow'

/** The smallest flow that emits an event type, over the public API. */
export interface Recipe {
  /** What the flow does, for `--help` and the output. */
  readonly summary: string
  run(flow: TriggerFlow): Promise<unknown>
}

/** The channel whose processor fails a step on a test amount. */
const testChannel = 'card_onetime_no_processor'
/** The sandbox's simulated card acquirer: it answers captures, refunds and reversals later. */
const acquirerChannel = 'card_onetime_simulated_acquirer'

const uncaptured = { instrument_params: { captured_on_creation: false } }
const acquirer = { channels: [acquirerChannel] }

/** The event a test amount's failing element emits. */
export function eventOfDecline(element: TestElement): EventType {
  return element === 'instrument' ? 'instrument.invalid' : `${element}.error`
}

/**
 * The test-amount procedure: a charge on the no_processor channel whose amount encodes `code`
 * and `element`, then each step up to the element, which the service declines with the code.
 */
export function declineRecipe(code: TestAmountCode, element: TestElement): Recipe {
  const captured = element === 'payment' || element === 'refund'
  return {
    summary: `a charge of ${formatTestAmount(code, element)} EUR on ${testChannel}, declined at the ${element} with ${code}`,
    async run(flow) {
      const charge = () =>
        flow.charge({
          amount: encodeTestAmount(code, element),
          channels: [testChannel],
          ...(element === 'charge'
            ? {}
            : { instrument_params: { captured_on_creation: captured } }),
        })
      if (element === 'charge') return flow.declined(element, charge)
      await charge()
      // A payment is captured when the instrument is created, so its decline answers that call.
      if (element === 'instrument' || element === 'payment') {
        return flow.declined(element, () => flow.instrument())
      }
      const instrument = await flow.instrument()
      if (element === 'refund') {
        const payment = await flow.capturedPayment(instrument)
        return flow.declined(element, () => flow.refund(payment))
      }
      return flow.declined(element, () => flow.reverse(instrument))
    },
  }
}

const paid: Recipe = {
  summary: 'a 10 EUR card charge and a card, captured on creation',
  run: (flow) => flow.paid(),
}

const authorized: Recipe = {
  summary: 'a 10 EUR card charge and a card, not captured',
  async run(flow) {
    await flow.charge(uncaptured)
    return flow.instrument()
  },
}

const settled: Recipe = {
  summary: 'a captured card payment, then the test settlement of the account',
  async run(flow) {
    await flow.paid()
    return flow.settle()
  },
}

/** One recipe per event type; the compiler insists on all of them. */
export const recipes: Record<EventType, Recipe> = {
  'charge.created': {
    summary: 'a 10 EUR card charge',
    run: (flow) => flow.charge(),
  },
  'charge.confirmed': {
    summary: 'a 10 EUR card charge (confirmed on creation)',
    run: (flow) => flow.charge(),
  },
  'charge.error': declineRecipe('02.04.0000', 'charge'),
  'instrument.created': authorized,
  'instrument.authorized': authorized,
  'instrument.pending': {
    summary:
      'a card charge with 3-D Secure and a card: it waits for the customer at the printed link',
    async run(flow) {
      await flow.charge({ instrument_params: { enable3ds: true } })
      return flow.instrument()
    },
  },
  'instrument.invalid': declineRecipe('03.03.0000', 'instrument'),
  'instrument.risk': declineRecipe('06.02.0000', 'instrument'),
  'instrument.settled': settled,
  'payment.error': declineRecipe('03.03.0000', 'payment'),
  'payment.pending': {
    summary: `a card charge on ${acquirerChannel} and a card: the capture is pending`,
    run: (flow) => flow.paid(acquirer),
  },
  'payment.success': paid,
  'payment.settled': settled,
  'refund.error': declineRecipe('02.03.0000', 'refund'),
  'refund.pending': {
    summary: `a confirmed payment on ${acquirerChannel}, then a full refund: pending`,
    async run(flow) {
      const payment = await flow.paymentSucceeded(await flow.paid(acquirer))
      return flow.refund(payment)
    },
  },
  'refund.success': {
    summary: 'a captured card payment, then a full refund',
    async run(flow) {
      return flow.refund(await flow.paid())
    },
  },
  'refund.settled': {
    summary: 'a captured card payment, a full refund, then the test settlement of the account',
    async run(flow) {
      await flow.refund(await flow.paid())
      return flow.settle()
    },
  },
  'reversal.success': {
    summary: 'an authorized card, not captured, then its reversal',
    async run(flow) {
      await flow.charge(uncaptured)
      return flow.reverse(await flow.instrument())
    },
  },
  'reversal.pending': {
    summary: `an authorized card on ${acquirerChannel}, not captured, then its reversal: pending`,
    async run(flow) {
      await flow.charge({ ...acquirer, ...uncaptured })
      return flow.reverse(await flow.instrument())
    },
  },
  'reversal.error': declineRecipe('04.01.0000', 'reversal'),
  'dispute.created': {
    summary: 'a captured card payment, then a dispute of it (a sandbox test helper)',
    async run(flow) {
      return flow.dispute(await flow.paid())
    },
  },
  'dispute.settled': {
    summary: 'a captured card payment, a dispute of it, then the dispute settled (won)',
    async run(flow) {
      return flow.settleDispute(await flow.dispute(await flow.paid()))
    },
  },
}
