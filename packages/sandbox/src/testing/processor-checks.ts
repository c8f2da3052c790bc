import { encodeTestAmount, formatTestAmount, type TestElement } from '@chargekit/errors'
import { KitFailure, summary, waitFor } from './kit-api'
import {
  authorizedInstrument,
  confirmedCharge,
  createCharge,
  createInstrument,
  expectEvents,
  explain,
  finishInstrument,
  finishMovement,
  pendingAuthorization,
  type StepContext,
  succeededMovement,
} from './kit-steps'

/**
 * Runs one named step of a scenario; a failed step ends the scenario (later steps depend on
 * it). Returns what the step reports on success.
 */
export type RunStep = (name: string, run: () => Promise<string>) => Promise<void>

/** A sequence of dependent steps in its own account, run beside the other scenarios. */
export type Scenario = (context: StepContext, step: RunStep) => Promise<void>

/** How to get a decline from a processor that does not follow error testing by amount. */
export interface DeclineRecipe {
  /** The charge type to decline (default: the processor's first). */
  chargeType?: string
  /** The charge amount (default: the kit's amount). */
  amount?: number
  /** The instrument request fields (default: the charge type's example). */
  details?: Record<string, unknown>
}

const idempotencyKey = (label: string) =>
  `kit-${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`

/**
 * Charge, instrument (through the approval page when there is one), capture, refund (or the
 * 409 of a charge type that cannot be refunded), settlement, and the events of each in order.
 */
export function paymentFlow(amount: number): Scenario {
  return async (context, step) => {
    const type = context.chargeType
    const events = ['charge.created', 'charge.confirmed', 'instrument.created']
    let chargeId = ''
    await step('charge', async () => {
      chargeId = (await confirmedCharge(context, amount, false)).id
      return `${chargeId} confirmed`
    })
    let instrumentId = ''
    await step('instrument', async () => {
      const { instrument, path } = await authorizedInstrument(context, chargeId, { viaPage: true })
      instrumentId = instrument.id
      if (path.startsWith('pending')) events.push('instrument.pending')
      events.push('instrument.authorized')
      return `authorized: ${path}`
    })
    let paymentId = ''
    await step('capture', async () => {
      const answer = await context.api.call('POST', '/payments', {
        instrument: instrumentId,
        amount,
        currency: context.currency,
      })
      if (answer.body?.status === 'pending') events.push('payment.pending')
      const payment = await succeededMovement(context, 'payment', chargeId, answer)
      paymentId = payment.id
      events.push('payment.success')
      return `payment ${paymentId} ${answer.body.status === 'pending' ? 'pending, then ' : ''}success`
    })
    const refundable = type.refundable !== false
    await step(refundable ? 'refund' : 'refund refused (not refundable)', async () => {
      const answer = await context.api.call('POST', `/payments/${paymentId}/refund`, { amount })
      if (!refundable) {
        if (answer.status !== 409) {
          throw new KitFailure(
            `the charge type says refundable: false, but the refund answered ${answer.status} ${summary(answer.body)}; expected 409`,
          )
        }
        return '409 as the charge type is not refundable'
      }
      if (answer.body?.status === 'pending') events.push('refund.pending')
      const refund = await succeededMovement(context, 'refund', chargeId, answer)
      events.push('refund.success')
      return `refund ${refund.id} success`
    })
    await step('settlement', async () => {
      await context.api.expect(201, 'the settlement test helper', 'POST', '/test/settlements', {})
      events.push('payment.settled')
      if (refundable) events.push('refund.settled')
      const payment = (
        await context.api.expect(200, 'reading the payment', 'GET', `/payments/${paymentId}`)
      ).body
      if (payment.settled_at == null) {
        throw new KitFailure(`payment ${paymentId} was not settled by POST /v2/test/settlements`)
      }
      return `settled at ${payment.settled_at}`
    })
    await step('events in order', () => expectEvents(context, chargeId, events))
  }
}

/** A charge that captures on creation: the instrument's authorization brings a payment. */
export function capturedOnCreation(amount: number): Scenario {
  return async (context, step) => {
    await step('captured on creation', async () => {
      const charge = await confirmedCharge(context, amount, true)
      const created = await createInstrument(context, charge.id)
      const { instrument, path } = await finishInstrument(context, created)
      const paymentId = instrument.last_payment?.id
      if (instrument.status !== 'authorized' || typeof paymentId !== 'string') {
        throw new KitFailure(
          explain(
            context,
            charge.id,
            created.body?.failure_code ?? instrument.failure_code,
            `the instrument ended ${instrument.status} without a payment after ${path} (${summary(created.body)})`,
          ),
        )
      }
      const payment = await context.api.expect(
        200,
        'reading the payment',
        'GET',
        `/payments/${paymentId}`,
      )
      const settled = await succeededMovement(context, 'payment', charge.id, payment)
      return `${path}; payment ${settled.id} success`
    })
  }
}

/** An uncaptured authorization reversed: `reversal.success`, the instrument `invalid`. */
export function reversalFlow(amount: number): Scenario {
  return async (context, step) => {
    await step('reversal', async () => {
      const charge = await confirmedCharge(context, amount, false)
      const { instrument } = await authorizedInstrument(context, charge.id)
      const answer = await context.api.call('POST', `/instruments/${instrument.id}/reversal`, {})
      const reversal = await succeededMovement(context, 'reversal', charge.id, answer)
      const after = await context.api.expect(
        200,
        'reading the instrument',
        'GET',
        `/instruments/${instrument.id}`,
      )
      if (after.body.status !== 'invalid') {
        throw new KitFailure(
          `the instrument is ${after.body.status} after its reversal, expected invalid`,
        )
      }
      await expectEvents(context, charge.id, ['instrument.authorized', 'reversal.success'])
      return `reversal ${reversal.id} success, instrument invalid`
    })
  }
}

/**
 * The same request sent twice with one Idempotency-Key gets the same answer, and the processor
 * decides once: one charge, one instrument, one payment.
 */
export function idempotentRetries(amount: number): Scenario {
  return async (context, step) => {
    await step('idempotent retries', async () => {
      const chargeKey = { 'idempotency-key': idempotencyKey('charge') }
      const [first, again] = [
        await createCharge(context, amount, false, chargeKey),
        await createCharge(context, amount, false, chargeKey),
      ]
      sameAnswer('POST /v2/charges', first, again)
      const chargeId = first.body.id
      const instrumentKey = { 'idempotency-key': idempotencyKey('instrument') }
      const created = await createInstrument(context, chargeId, instrumentKey)
      sameAnswer(
        'POST /v2/instruments',
        created,
        await createInstrument(context, chargeId, instrumentKey),
      )
      const authorizations = context.recorder.callsFor(chargeId, 'authorize').length
      if (authorizations !== 1) {
        throw new KitFailure(
          `authorize() was called ${authorizations} times for one instrument request sent twice`,
        )
      }
      const { instrument } = await finishInstrument(context, created)
      if (instrument.status !== 'authorized') {
        throw new KitFailure(
          `the example instrument ended ${instrument.status}, expected authorized`,
        )
      }
      const paymentKey = { 'idempotency-key': idempotencyKey('payment') }
      const body = { instrument: instrument.id, amount, currency: context.currency }
      const payment = await context.api.call('POST', '/payments', body, paymentKey)
      sameAnswer(
        'POST /v2/payments',
        payment,
        await context.api.call('POST', '/payments', body, paymentKey),
      )
      const captures = context.recorder.callsFor(chargeId, 'capture').length
      if (captures !== 1) {
        throw new KitFailure(
          `capture() was called ${captures} times for one payment request sent twice`,
        )
      }
      const payments = await context.api.expect(
        200,
        'listing payments',
        'GET',
        `/payments?charge=${chargeId}`,
      )
      if (payments.body.pagination.total !== 1) {
        throw new KitFailure(
          `the charge has ${payments.body.pagination.total} payments after one payment request sent twice`,
        )
      }
      return 'charge, instrument and payment each created once'
    })
  }
}

function sameAnswer(
  what: string,
  first: { status: number; body: { id?: string } },
  again: { status: number; headers: Headers; body: { id?: string } },
) {
  if (again.status !== first.status || again.body?.id !== first.body?.id) {
    throw new KitFailure(
      `${what} sent twice with one Idempotency-Key answered ${first.status} ${first.body?.id} then ${again.status} ${again.body?.id}`,
    )
  }
  if (again.headers.get('idempotent-replayed') !== 'true') {
    throw new KitFailure(
      `${what} sent again with its Idempotency-Key was not marked Idempotent-Replayed: true`,
    )
  }
}

/** How far ahead a deadline is checked in real time: long enough to see it was not early. */
const deadlineCheckMs = 250

/**
 * When the authorization waits for the customer: the customer declines, or never answers (the
 * expire test helper, and the deadline itself in a sandbox whose clock runs it in a moment).
 * Nothing is checked when authorize() never waits for the customer.
 */
export function customerAnswers(amount: number): Scenario {
  return async (context, step) => {
    const probe = await confirmedCharge(context, amount, false)
    const created = await createInstrument(context, probe.id)
    const pending = pendingAuthorization(context, probe.id)
    if (created.body?.status !== 'pending' || pending?.awaiting !== 'customer') return
    // A reference is paid or left unpaid: its customer has nothing to decline.
    if (pending.action !== 'reference') {
      await step('customer declines', async () => {
        const charge = await confirmedCharge(context, amount, false)
        const instrument = (await createInstrument(context, charge.id)).body
        const answer = await context.api.expect(
          200,
          'the decline test helper',
          'POST',
          `/test/instruments/${instrument.id}/decline`,
          {},
        )
        if (answer.body.status !== 'invalid') {
          throw new KitFailure(
            explain(
              context,
              charge.id,
              answer.body.failure_code,
              `the customer declined but the instrument is ${answer.body.status}; completeChallenge() must fail a refused answer`,
            ),
          )
        }
        await expectEvents(context, charge.id, ['instrument.pending', 'instrument.invalid'])
        return `invalid with ${answer.body.failure_code}`
      })
    }
    await step('expiry (expire test helper)', async () => {
      const answer = await context.api.expect(
        200,
        'the expire test helper',
        'POST',
        `/test/instruments/${created.body.id}/expire`,
        {},
      )
      if (answer.body.status !== 'invalid' || answer.body.failure_code !== '03.00.0002') {
        throw new KitFailure(
          `the expired instrument is ${answer.body.status} (${answer.body.failure_code}), expected invalid with 03.00.0002`,
        )
      }
      await expectEvents(context, probe.id, ['instrument.pending', 'instrument.invalid'])
      return pending.expiresAfterMs === undefined
        ? 'invalid with 03.00.0002; authorize() gives no expiresAfterMs, so the customer has no deadline'
        : 'invalid with 03.00.0002'
    })
    const expiresAfterMs = pending.expiresAfterMs
    // A simulated customer answers before any deadline: nothing to wait for.
    if (expiresAfterMs === undefined || pending.customerAnswer !== undefined) return
    await step('deadline honoured', () => deadlineHonoured(context, amount, expiresAfterMs))
  }
}

/** In a sandbox whose clock makes the deadline ~250 ms away: pending until it, invalid after. */
async function deadlineHonoured(
  context: StepContext,
  amount: number,
  expiresAfterMs: number,
): Promise<string> {
  const timeScale = deadlineCheckMs / Math.max(expiresAfterMs, 1)
  const sandbox = await context.launch(timeScale)
  try {
    const local: StepContext = { ...context, api: sandbox.api, timeScale }
    const charge = await confirmedCharge(local, amount, false)
    const created = (await createInstrument(local, charge.id)).body
    const expiresAt = Date.parse(created.redirect?.parameters?.expires_at)
    if (created.status !== 'pending' || Number.isNaN(expiresAt)) {
      throw new KitFailure(
        `the instrument is ${created.status} with redirect ${JSON.stringify(created.redirect)}, expected pending with redirect.parameters.expires_at`,
      )
    }
    const expired = await waitFor(
      local.api,
      `/instruments/${created.id}`,
      (body) => body.status !== 'pending',
      deadlineCheckMs + context.timeoutMs,
      () =>
        `the instrument was still pending ${deadlineCheckMs + context.timeoutMs} ms after its deadline`,
    )
    const decidedAt = Date.parse(String(expired.updated_at))
    // The deadline's task and expires_at read the clock a moment apart.
    if (decidedAt < expiresAt - 25) {
      throw new KitFailure(
        `the instrument ended ${expired.status} at ${expired.updated_at}, before its deadline ${created.redirect.parameters.expires_at}`,
      )
    }
    if (expired.status !== 'invalid' || expired.failure_code !== '03.00.0002') {
      throw new KitFailure(
        `at its deadline the instrument ended ${expired.status} (${expired.failure_code}), expected invalid with 03.00.0002`,
      )
    }
    return `expired with 03.00.0002 at its deadline (expiresAfterMs ${expiresAfterMs})`
  } finally {
    await sandbox.close()
  }
}

/** The error code the kit encodes in test amounts: a soft decline every processor can give. */
const testCode = '02.03.0000'

/**
 * Error testing by amount for one element: the charge amount encodes {@link testCode} and the
 * element, and that step fails with it (at once, or as the processor's later answer).
 */
export function testAmount(element: TestElement): Scenario {
  return async (context, step) => {
    const amount = encodeTestAmount(testCode, element)
    const shown = formatTestAmount(testCode, element)
    const expectCode = (what: string, failureCode: unknown, chargeId: string) => {
      if (failureCode !== testCode) {
        throw new KitFailure(
          explain(
            context,
            chargeId,
            failureCode,
            `a charge of ${shown} encodes ${testCode} at the ${element} step, but ${what} ${failureCode == null ? 'went through' : `failed with ${failureCode}`}: the processor says honoursTestAmounts, so it must fail that step with the encoded code`,
          ),
        )
      }
      return `${what} failed with ${testCode}`
    }
    await step(`test amount ${shown} (${element})`, async () => {
      const charge = await createCharge(context, amount, false)
      if (element === 'charge')
        return expectCode(
          'the charge',
          charge.body.failure_code,
          charge.body.metadata?.charge ?? charge.body.id,
        )
      if (charge.status !== 201)
        throw new KitFailure(
          `the charge failed with ${charge.body.failure_code} before the ${element} step`,
        )
      const chargeId: string = charge.body.id
      if (element === 'instrument') {
        const { instrument } = await finishInstrument(
          context,
          await createInstrument(context, chargeId),
        )
        return expectCode('the instrument', instrument.failure_code, chargeId)
      }
      const { instrument } = await authorizedInstrument(context, chargeId)
      if (element === 'reversal') {
        const answer = await context.api.call('POST', `/instruments/${instrument.id}/reversal`, {})
        return expectCode(
          'the reversal',
          (await finishMovement(context, 'reversal', chargeId, answer)).failure_code,
          chargeId,
        )
      }
      const body = { instrument: instrument.id, amount, currency: context.currency }
      const capture = await context.api.call('POST', '/payments', body)
      if (element === 'payment') {
        return expectCode(
          'the payment',
          (await finishMovement(context, 'payment', chargeId, capture)).failure_code,
          chargeId,
        )
      }
      const payment = await succeededMovement(context, 'payment', chargeId, capture)
      const refund = await context.api.call('POST', `/payments/${payment.id}/refund`, { amount })
      return expectCode(
        'the refund',
        (await finishMovement(context, 'refund', chargeId, refund)).failure_code,
        chargeId,
      )
    })
  }
}

/** The author's recipe for a decline: the instrument ends `invalid` with a catalogue code. */
export function declineRecipe(recipe: DeclineRecipe, amount: number): Scenario {
  return async (context, step) => {
    await step('decline', async () => {
      const charge = await confirmedCharge(context, recipe.amount ?? amount, false)
      const created = await createInstrument(context, charge.id, undefined, recipe.details)
      const { instrument, path } = await finishInstrument(context, created)
      if (instrument.status !== 'invalid') {
        throw new KitFailure(
          `the decline recipe's instrument ended ${instrument.status} after ${path}, expected invalid`,
        )
      }
      const code = instrument.failure_code
      if (code === '99.02.0001' || code === '99.02.0004') {
        throw new KitFailure(explain(context, charge.id, code, `the decline failed with ${code}`))
      }
      await expectEvents(context, charge.id, ['instrument.created', 'instrument.invalid'])
      return `invalid with ${code} (${instrument.failure_description})`
    })
  }
}
