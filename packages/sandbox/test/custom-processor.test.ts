import { cardDetailsSchema } from '@chargekit/schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as z from 'zod'
import { challengeForm } from '../../../scripts/challenge-form'
import {
  type CaptureRequest,
  cardOnetime,
  createMemoryStore,
  defineChargeType,
  type Outcome,
  type Processor,
  type ProcessorContext,
  SandboxError,
  type SandboxLogger,
  type SandboxStore,
  startSandbox,
} from '../src/index'
import type { WorkPayload } from '../src/storage/work-queue'
import { eventually, startTestSandbox, type TestSandbox, testCard } from '../src/testing/index'
import { eventTypesOf } from './event-types'

/** A wallet charge type whose customer gives a card, as a user would declare it. */
const walletOnetime = defineChargeType({
  id: 'wallet_onetime',
  label: 'Wallet one-time payment',
  recurring: false,
  instrumentRequest: cardDetailsSchema,
  example: cardOnetime.example as z.output<typeof cardDetailsSchema>,
  params: (card) => ({ last_4_digits: card.number.slice(-4) }),
})

/** A wallet processor written the way a user would: no access to the sandbox's internals. */
const captures: { context: ProcessorContext; request: CaptureRequest }[] = []
const ledgerBank: Processor = {
  name: 'ledger_bank',
  chargeTypes: [walletOnetime],
  descriptor: 'LEDGER*BANK',
  authorize: (_context, request) =>
    request.card?.last4 === '0000'
      ? { status: 'failed', code: '03.03.0000', description: 'Wallet refused' }
      : { status: 'succeeded', transactionId: `auth-${request.instrumentId}` },
  capture(context, request) {
    captures.push({ context, request })
    return {
      status: 'pending',
      awaiting: 'processor',
      afterMs: 1_000,
      transactionId: 'ledger-txn-1',
      outcome: { status: 'succeeded' },
    }
  },
  refund: () => ({ status: 'succeeded' }),
  reverse: () => ({ status: 'succeeded' }),
}

const brokenBank: Processor = {
  name: 'broken_bank',
  chargeTypes: ['card_onetime'],
  authorize: () => ({ status: 'succeeded' }),
  capture: () => {
    throw new Error('bank exploded')
  },
  // A typo'd status: not a valid outcome.
  refund: () => ({ status: 'ok' }) as never,
  reverse: () => ({ status: 'failed', code: '12.34.5678' }),
}

/** Answers authorizations and reversals later, as some acquirers do. */
const asyncBank: Processor = {
  name: 'async_bank',
  chargeTypes: ['card_onetime'],
  authorize: () => ({
    status: 'pending',
    awaiting: 'processor',
    afterMs: 1_000,
    outcome: { status: 'succeeded' },
  }),
  capture: () => ({ status: 'succeeded' }),
  refund: () => ({ status: 'succeeded' }),
  reverse: () => ({
    status: 'pending',
    awaiting: 'processor',
    afterMs: 1_000,
    outcome: { status: 'succeeded' },
  }),
}

/**
 * Waits for the customer in the malformed way the charge's `metadata.wait` names, as a processor
 * written in plain JavaScript might.
 */
const wait = (malformed: Record<string, unknown>) =>
  ({ status: 'pending', awaiting: 'customer', ...malformed }) as Outcome
const malformedWaits: Record<string, Outcome> = {
  'an unknown action': wait({ action: { type: 'sms' } }),
  'a reference without parameters': wait({ action: { type: 'reference' } }),
  'parameters that are objects': wait({ action: { type: 'app', parameters: { phone: {} } } }),
  'a NaN deadline': wait({ expiresAfterMs: Number.NaN }),
  'a negative simulated answer': wait({ customerAnswer: { afterMs: -1, approved: true } }),
}
const sloppyWallet: Processor = {
  name: 'sloppy_wallet',
  chargeTypes: ['card_onetime'],
  authorize: ({ charge }) =>
    (typeof charge.metadata === 'object' && malformedWaits[String(charge.metadata.wait)]) ||
    wait({}),
  capture: () => ({ status: 'succeeded' }),
  refund: () => ({ status: 'succeeded' }),
  reverse: () => ({ status: 'succeeded' }),
}

/** Answers every authorization a moment later. */
const slowAuthorizer: Processor = {
  name: 'slow_authorizer',
  chargeTypes: ['card_onetime'],
  authorize: () => ({
    status: 'pending',
    awaiting: 'processor',
    afterMs: 0,
    outcome: { status: 'succeeded' },
  }),
  capture: () => ({ status: 'succeeded' }),
  refund: () => ({ status: 'succeeded' }),
  reverse: () => ({ status: 'succeeded' }),
}

/**
 * The memory store, except that processors' later answers are not handed out while
 * `holdAnswers` is set; `answered` lists the tasks that ran to completion.
 */
let holdAnswers = false
const answered: WorkPayload[] = []
const memory = createMemoryStore()
const store: SandboxStore = {
  ...memory,
  work: {
    ...memory.work,
    claim: (kind, ...rest) =>
      kind === 'lifecycle' && holdAnswers ? Promise.resolve([]) : memory.work.claim(kind, ...rest),
    async finish(outcomes) {
      const held = await memory.work.finish?.(outcomes)
      if (held === undefined) throw new Error('the memory store finishes work in batches')
      outcomes.forEach(({ work, done }, index) => {
        if (done && held[index] && work.kind === 'lifecycle') answered.push(work.payload)
      })
      return held
    },
  },
}

/**
 * Confirms every money movement later, with its own reference for each (the later answer's
 * transactionId is the one the object keeps); a refund of 3.33 is refused later, with a reference too.
 */
const lateBank: Processor = {
  name: 'late_bank',
  chargeTypes: ['card_onetime'],
  authorize: () => ({ status: 'succeeded', transactionId: 'late-auth' }),
  capture: (_context, { paymentId }) => ({
    status: 'pending',
    awaiting: 'processor',
    afterMs: 1_000,
    transactionId: 'late-capture-pending',
    outcome: { status: 'succeeded', transactionId: `late-capture-${paymentId}` },
  }),
  refund: (_context, { refundId, amount }) => ({
    status: 'pending',
    awaiting: 'processor',
    afterMs: 1_000,
    // Decided now, told later.
    outcome:
      amount.minorUnits === 333n
        ? { status: 'failed', code: '02.03.0000', transactionId: `late-refund-${refundId}` }
        : { status: 'succeeded', transactionId: `late-refund-${refundId}` },
  }),
  reverse: (_context, { reversalId }) => ({
    status: 'pending',
    awaiting: 'processor',
    afterMs: 1_000,
    outcome: { status: 'succeeded', transactionId: `late-reversal-${reversalId}` },
  }),
}

/** Its charge step answers pending, which the charge step does not allow. */
const pendingChargeBank: Processor = {
  name: 'pending_charge_bank',
  chargeTypes: ['card_onetime'],
  onCharge: () =>
    ({
      status: 'pending',
      awaiting: 'processor',
      afterMs: 1,
      outcome: { status: 'succeeded' },
    }) as never,
  authorize: () => ({ status: 'succeeded' }),
  capture: () => ({ status: 'succeeded' }),
  refund: () => ({ status: 'succeeded' }),
  reverse: () => ({ status: 'succeeded' }),
}

/** Asks for 3DS, then answers the customer's choice with pending, which a decision may not be. */
const undecidedBank: Processor = {
  name: 'undecided_bank',
  chargeTypes: ['card_onetime'],
  authorize: () => ({ status: 'pending', awaiting: 'customer' }),
  completeChallenge: () =>
    ({
      status: 'pending',
      awaiting: 'processor',
      afterMs: 1,
      outcome: { status: 'succeeded' },
    }) as never,
  capture: () => ({ status: 'succeeded' }),
  refund: () => ({ status: 'succeeded' }),
  reverse: () => ({ status: 'succeeded' }),
}

/** Serves `card`, the built-in charge type whose id is a prefix of the other card types'. */
const shortTypeBank: Processor = {
  name: 'short_type_bank',
  chargeTypes: ['card'],
  authorize: () => ({ status: 'succeeded' }),
  capture: () => ({ status: 'succeeded' }),
  refund: () => ({ status: 'succeeded' }),
  reverse: () => ({ status: 'succeeded' }),
}

const errors: string[] = []
const logger: SandboxLogger = {
  info: () => {},
  warn: () => {},
  error: (message) => errors.push(message),
}
let harness: TestSandbox

beforeAll(async () => {
  harness = await startTestSandbox({
    processors: [
      ledgerBank,
      brokenBank,
      asyncBank,
      lateBank,
      pendingChargeBank,
      undecidedBank,
      sloppyWallet,
      shortTypeBank,
      slowAuthorizer,
    ],
    timeScale: 0.001,
    logger,
    store,
  })
})
afterAll(() => harness.close())

describe('a custom processor', () => {
  it('gets channels on every account and runs a full flow', async () => {
    const account = harness.sandbox.accounts[0]
    expect(account?.channels.map((channel) => channel.label)).toContain(
      'wallet_onetime_ledger_bank',
    )
    const api = harness.api
    const charge = await api('POST', '/charges', {
      charge_type: 'wallet_onetime',
      amount: 19.99,
      currency: 'EUR',
      events_url: harness.eventsUrl,
    })
    expect(charge.status).toBe(201)
    expect(charge.body).toMatchObject({
      charge_type_label: 'Wallet one-time payment',
      channels: [{ label: 'wallet_onetime_ledger_bank', processor: 'ledger_bank' }],
      instrument_params: { captured_on_creation: true },
    })
    const instrument = await api('POST', '/instruments', testCard(charge.body.id))
    expect(instrument.status).toBe(201)
    // The authorization's reference from the processor's outcome.
    expect(instrument.body.external_ids).toEqual({
      descriptor: 'LEDGER*BANK',
      processor: 'ledger_bank',
      transaction_id: `auth-${instrument.body.id}`,
      transaction_id_trunc: `auth-${instrument.body.id}`.slice(-8),
    })

    // The processor saw the charge and exact minor units, never a float to add up.
    const call = captures.at(-1)
    expect(call?.context.charge.id).toBe(charge.body.id)
    expect(call?.context.channel.label).toBe('wallet_onetime_ledger_bank')
    expect(call?.request.amount).toEqual({ amount: 19.99, currency: 'EUR', minorUnits: 1999n })

    const payment = await eventually(async () => {
      const listed = await api('GET', `/payments?charge=${charge.body.id}`)
      expect(listed.body.collection[0]?.status).toBe('success')
      return listed.body.collection[0]
    })
    expect(payment.external_ids).toMatchObject({
      processor: 'ledger_bank',
      transaction_id: 'ledger-txn-1',
    })
    const refund = await api('POST', `/payments/${payment.id}/refund`, { amount: 9.99 })
    expect(refund.body.status).toBe('success')
    await api('POST', '/test/settlements')
    expect(await eventTypesOf(api, charge.body.id)).toEqual([
      'charge.created',
      'charge.confirmed',
      'instrument.created',
      'instrument.authorized',
      'payment.pending',
      'payment.success',
      'refund.success',
      'payment.settled',
      'refund.settled',
      'instrument.settled',
    ])
  })

  it('declines with its own code; its own text is the failure_message, beside the designation', async () => {
    const charge = await harness.api('POST', '/charges', {
      charge_type: 'wallet_onetime',
      amount: 5,
      currency: 'EUR',
      events_url: harness.eventsUrl,
    })
    const answer = await harness.api(
      'POST',
      '/instruments',
      testCard(charge.body.id, { number: '4000000000000000' }),
    )
    expect(answer.status).toBe(402)
    expect(answer.body).toMatchObject({
      failure_code: '03.03.0000',
      failure_description: 'Card is Declined',
      failure_message: 'Wallet refused',
      metadata: { failure_description: 'Card is Declined' },
    })
    const stored = await harness.api('GET', `/instruments/${answer.body.metadata.instrument}`)
    expect(stored.body).toMatchObject({
      failure_description: 'Card is Declined',
      failure_message: 'Wallet refused',
    })
  })

  it('turns a throwing or malformed processor into a recorded failure, not a 500', async () => {
    const api = harness.api
    const charge = await api('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 10,
      currency: 'USD',
      events_url: harness.eventsUrl,
      channels: ['card_onetime_broken_bank'],
      instrument_params: { captured_on_creation: false },
    })
    const instrument = await api('POST', '/instruments', testCard(charge.body.id))
    const thrown = await api('POST', '/payments', {
      instrument: instrument.body.id,
      amount: 10,
      currency: 'USD',
    })
    expect(thrown.status).toBe(402)
    expect(thrown.body.failure_code).toBe('99.02.0004')
    expect((await api('GET', `/payments/${thrown.body.metadata.payment}`)).body.status).toBe(
      'error',
    )
    const reversal = await api('POST', `/instruments/${instrument.body.id}/reversal`)
    expect(reversal.status).toBe(402)
    expect(reversal.body.failure_code).toBe('99.02.0001')
    expect(errors.some((message) => message.includes('broken_bank threw in capture'))).toBe(true)
    expect(errors.some((message) => message.includes('malformed outcome'))).toBe(true)
  })

  it('keeps the authorization open when its automatic capture is declined', async () => {
    const api = harness.api
    const charge = await api('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 10,
      currency: 'USD',
      events_url: harness.eventsUrl,
      channels: ['card_onetime_broken_bank'],
    })
    expect(charge.body.instrument_params.captured_on_creation).toBe(true)
    const answer = await api('POST', '/instruments', testCard(charge.body.id))
    expect(answer.status).toBe(402)
    expect(answer.body.failure_code).toBe('99.02.0004')
    const instrument = await api('GET', `/instruments/${answer.body.metadata.instrument}`)
    expect(instrument.body).toMatchObject({ status: 'authorized', failure_code: null })
    expect((await eventTypesOf(api, charge.body.id)).at(-1)).toBe('payment.error')
  })
})

describe('asynchronous authorizations and reversals', () => {
  it('keeps an instrument the merchant invalidated while the processor was deciding invalid', async () => {
    const api = harness.api
    const charge = await api('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 8,
      currency: 'USD',
      events_url: harness.eventsUrl,
      channels: ['card_onetime_slow_authorizer'],
    })
    holdAnswers = true
    const instrument = await api('POST', '/instruments', testCard(charge.body.id))
    expect(instrument.body.status).toBe('pending')
    expect((await api('DELETE', `/instruments/${instrument.body.id}`)).status).toBe(204)
    holdAnswers = false
    // Recording an event wakes the runner of later answers.
    await api('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 1,
      currency: 'USD',
      events_url: harness.eventsUrl,
    })
    await eventually(async () => {
      expect(answered.map((task) => task.instrumentId)).toContain(instrument.body.id)
    })
    expect((await api('GET', `/instruments/${instrument.body.id}`)).body.status).toBe('invalid')
    expect(await eventTypesOf(api, charge.body.id)).toEqual([
      'charge.created',
      'charge.confirmed',
      'instrument.created',
      'instrument.pending',
      'instrument.invalid',
    ])
  })

  it('keeps the instrument pending until the processor answers, then reverses it later', async () => {
    const api = harness.api
    const charge = await api('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 8,
      currency: 'USD',
      events_url: harness.eventsUrl,
      channels: ['card_onetime_async_bank'],
      instrument_params: { captured_on_creation: false },
    })
    const instrument = await api('POST', '/instruments', testCard(charge.body.id))
    expect(instrument.body).toMatchObject({ status: 'pending', redirect: null })
    await eventually(async () => {
      expect((await api('GET', `/instruments/${instrument.body.id}`)).body.status).toBe(
        'authorized',
      )
    })
    const reversal = await api('POST', `/instruments/${instrument.body.id}/reversal`)
    expect(reversal.body.status).toBe('pending')
    // While the void is pending, nothing can be captured.
    const capture = await api('POST', '/payments', {
      instrument: instrument.body.id,
      amount: 8,
      currency: 'USD',
    })
    expect(capture.status).toBe(409)
    await eventually(async () => {
      expect((await api('GET', `/reversals/${reversal.body.id}`)).body.status).toBe('success')
    })
    expect(await eventTypesOf(api, charge.body.id)).toEqual([
      'charge.created',
      'charge.confirmed',
      'instrument.created',
      'instrument.pending',
      'instrument.authorized',
      'reversal.pending',
      'reversal.success',
      'instrument.invalid',
    ])
  })
})

describe("a pending outcome's transaction id", () => {
  const lateCharge = async (instrumentParams: Record<string, unknown>) => {
    const api = harness.api
    const charge = await api('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 10,
      currency: 'USD',
      events_url: harness.eventsUrl,
      channels: ['card_onetime_late_bank'],
      instrument_params: instrumentParams,
    })
    const instrument = await api('POST', '/instruments', testCard(charge.body.id))
    return { chargeId: charge.body.id as string, instrument: instrument.body }
  }
  const settledState = (path: string) =>
    eventually(async () => {
      const answer = await harness.api('GET', path)
      expect(answer.body.status).not.toBe('pending')
      return answer.body
    })

  it("becomes the payment's and refund's external_ids when the later answer gives one", async () => {
    const api = harness.api
    const { chargeId, instrument } = await lateCharge({ captured_on_creation: false })
    expect(instrument.external_ids).toMatchObject({
      transaction_id: 'late-auth',
      transaction_id_trunc: 'ate-auth',
    })
    const pending = await api('POST', '/payments', {
      instrument: instrument.id,
      amount: 10,
      currency: 'USD',
    })
    expect(pending.body).toMatchObject({
      status: 'pending',
      external_ids: { transaction_id: 'late-capture-pending' },
    })
    const payment = await settledState(`/payments/${pending.body.id}`)
    const captureId = `late-capture-${pending.body.id}`
    expect(payment).toMatchObject({
      status: 'success',
      external_ids: { transaction_id: captureId, transaction_id_trunc: captureId.slice(-8) },
    })
    const refund = await api('POST', `/payments/${payment.id}/refund`, { amount: 5 })
    expect(await settledState(`/refunds/${refund.body.id}`)).toMatchObject({
      status: 'success',
      external_ids: { transaction_id: `late-refund-${refund.body.id}` },
    })
    const declined = await api('POST', `/payments/${payment.id}/refund`, { amount: 3.33 })
    expect(await settledState(`/refunds/${declined.body.id}`)).toMatchObject({
      status: 'error',
      failure_code: '02.03.0000',
      external_ids: { transaction_id: `late-refund-${declined.body.id}` },
    })
    // The success event snapshots the payment with the processor's reference.
    const events = await api('GET', `/events?charge=${chargeId}&type=payment.success`)
    expect(events.body.collection[0].payment.external_ids.transaction_id).toBe(captureId)
  })

  it("becomes the reversal's external_ids too", async () => {
    const { instrument } = await lateCharge({ captured_on_creation: false })
    const pending = await harness.api('POST', `/instruments/${instrument.id}/reversal`)
    expect(pending.body.status).toBe('pending')
    expect(await settledState(`/reversals/${pending.body.id}`)).toMatchObject({
      status: 'success',
      external_ids: { transaction_id: `late-reversal-${pending.body.id}` },
    })
  })
})

describe('the charge step', () => {
  it('refuses a pending answer as a malformed outcome (402 99.02.0001), not a confirmation', async () => {
    const api = harness.api
    const answer = await api('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 10,
      currency: 'USD',
      events_url: harness.eventsUrl,
      channels: ['card_onetime_pending_charge_bank'],
    })
    expect(answer.status).toBe(402)
    expect(answer.body.failure_code).toBe('99.02.0001')
    const charge = await api('GET', `/charges/${answer.body.metadata.charge}`)
    expect(charge.body).toMatchObject({ confirmed: false, failure_code: '99.02.0001' })
    expect(await eventTypesOf(api, charge.body.id)).toEqual(['charge.created', 'charge.error'])
    expect(
      errors.some((message) =>
        message.includes('pending_charge_bank answered onCharge with a malformed outcome'),
      ),
    ).toBe(true)
  })
})

describe('the 3DS decision', () => {
  it('refuses a pending answer as a malformed outcome: the instrument fails with 99.02.0001', async () => {
    const api = harness.api
    const charge = await api('POST', '/charges', {
      charge_type: 'card_onetime',
      amount: 10,
      currency: 'USD',
      events_url: harness.eventsUrl,
      channels: ['card_onetime_undecided_bank'],
    })
    const instrument = await api('POST', '/instruments', testCard(charge.body.id))
    expect(instrument.body.status).toBe('pending')
    const { action, token } = await challengeForm(instrument.body.redirect.url)
    const page = await fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, outcome: 'authorize' }),
    })
    expect(page.status).toBe(200)
    expect((await api('GET', `/instruments/${instrument.body.id}`)).body).toMatchObject({
      status: 'invalid',
      failure_code: '99.02.0001',
    })
  })
})

describe('a wait for the customer', () => {
  it.each(Object.keys(malformedWaits))(
    'with %s is a malformed outcome: 402 99.02.0001',
    async (malformed) => {
      const api = harness.api
      const charge = await api('POST', '/charges', {
        charge_type: 'card_onetime',
        amount: 10,
        currency: 'USD',
        events_url: harness.eventsUrl,
        channels: ['card_onetime_sloppy_wallet'],
        metadata: { wait: malformed },
      })
      const instrument = await api('POST', '/instruments', testCard(charge.body.id))
      expect(instrument.status).toBe(402)
      expect(instrument.body.failure_code).toBe('99.02.0001')
      expect(
        errors.some((message) =>
          message.includes('sloppy_wallet answered authorize with a malformed outcome'),
        ),
      ).toBe(true)
    },
  )
})

describe('channels of a charge', () => {
  it("accept only channels of the charge's own charge type, not labels sharing its prefix", async () => {
    const answer = await harness.api('POST', '/charges', {
      charge_type: 'card',
      amount: 10,
      currency: 'USD',
      events_url: harness.eventsUrl,
      channels: ['card_onetime_no_processor', 'card_short_type_bank'],
    })
    expect(answer.status).toBe(400)
    expect(answer.body.parameters).toEqual({
      'channels.0': [
        'Channel card_onetime_no_processor serves charge type card_onetime, not card: expected one of card_no_processor, card_simulated_acquirer, card_short_type_bank',
      ],
    })
  })
})

describe('the processor registry', () => {
  const base: Processor = {
    name: 'ok_bank',
    chargeTypes: ['card_onetime'],
    authorize: () => ({ status: 'succeeded' }),
    capture: () => ({ status: 'succeeded' }),
    refund: () => ({ status: 'succeeded' }),
    reverse: () => ({ status: 'succeeded' }),
  }

  it.each([
    ['a bad name', { ...base, name: 'Bad Name' }, /name/],
    ['a built-in name', { ...base, name: 'no_processor' }, /registered twice/],
    ['no charge types', { ...base, chargeTypes: [] }, /chargeTypes/],
    ['a missing method', { ...base, capture: undefined } as unknown as Processor, /capture/],
    ['a bad settlement delay', { ...base, settlementDelayMs: -1 }, /settlementDelayMs/],
    [
      'a channel label that is already another processor’s',
      {
        ...base,
        name: 'acquirer',
        chargeTypes: [{ ...walletOnetime, id: 'card_onetime_simulated' }],
      },
      /"card_onetime_simulated_acquirer", which is already processor "simulated_acquirer"'s channel for charge type "card_onetime"/,
    ],
    [
      'a charge type nobody defines',
      { ...base, chargeTypes: ['crypto_onetime'] },
      /serves charge type "crypto_onetime", which no processor defines/,
    ],
    [
      'a second definition of a charge type',
      { ...base, chargeTypes: [{ ...cardOnetime }] },
      /defines charge type "card_onetime", which another processor already defines/,
    ],
    [
      'an instrument schema that declares the charge',
      {
        ...base,
        chargeTypes: [
          { ...walletOnetime, instrumentRequest: cardDetailsSchema.extend({ charge: z.string() }) },
        ],
      },
      /must not declare "charge"/,
    ],
    [
      'an example its own schema refuses',
      { ...base, chargeTypes: [{ ...walletOnetime, example: { number: '42' } }] },
      /example does not pass its own instrumentRequest schema \(name: /,
    ],
    [
      'a currency that is no ISO 4217 code',
      { ...base, chargeTypes: [{ ...walletOnetime, currencies: ['euro'] }] },
      /currencies must be a non-empty list of ISO 4217 codes/,
    ],
    [
      'a charge type listed twice',
      { ...base, chargeTypes: ['card_onetime', 'card_onetime'] },
      /lists charge type "card_onetime" twice/,
    ],
  ])('refuses %s at start-up', async (_, processor, message) => {
    const start = startSandbox({ port: 0, processors: [processor] })
    await expect(start).rejects.toThrow(SandboxError)
    await expect(start).rejects.toThrow(message)
  })
})
