import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type CaptureRequest,
  type Processor,
  type ProcessorContext,
  SandboxError,
  type SandboxLogger,
  startSandbox,
} from '../src/index'
import { cardFor, eventTypesOf, eventually, type Harness, startHarness } from './sandbox-harness'

/** A wallet processor written the way a user would: no access to the sandbox's internals. */
const captures: { context: ProcessorContext; request: CaptureRequest }[] = []
const ledgerBank: Processor = {
  name: 'ledger_bank',
  chargeTypes: ['wallet_onetime'],
  descriptor: 'LEDGER*BANK',
  authorize: (_context, request) =>
    request.card.last4 === '0000'
      ? { status: 'failed', code: '03.03.0000', description: 'Wallet refused' }
      : { status: 'succeeded', transactionId: `auth-${request.instrumentId}` },
  capture(context, request) {
    captures.push({ context, request })
    return {
      status: 'pending',
      awaiting: 'processor',
      afterMs: 1_000,
      transactionId: 'ledger-txn-1',
      resolve: () => ({ status: 'succeeded' }),
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
    resolve: () => ({ status: 'succeeded' }),
  }),
  capture: () => ({ status: 'succeeded' }),
  refund: () => ({ status: 'succeeded' }),
  reverse: () => ({
    status: 'pending',
    awaiting: 'processor',
    afterMs: 1_000,
    resolve: () => ({ status: 'succeeded' }),
  }),
}

const errors: string[] = []
const logger: SandboxLogger = {
  info: () => {},
  warn: () => {},
  error: (message) => errors.push(message),
}
let harness: Harness

beforeAll(async () => {
  harness = await startHarness({
    processors: [ledgerBank, brokenBank, asyncBank],
    timeScale: 0.001,
    logger,
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
      charge_type_label: 'Wallet onetime',
      channels: [{ label: 'wallet_onetime_ledger_bank', processor: 'ledger_bank' }],
      instrument_params: { captured_on_creation: true },
    })
    const instrument = await api('POST', '/instruments', cardFor(charge.body.id))
    expect(instrument.status).toBe(201)
    expect(instrument.body.external_ids).toEqual({
      descriptor: 'LEDGER*BANK',
      processor: 'ledger_bank',
    })

    // The processor saw the charge and exact minor units, never a float to add up.
    const call = captures.at(-1)
    expect(call?.context.charge.id).toBe(charge.body.id)
    expect(call?.context.channel.label).toBe('wallet_onetime_ledger_bank')
    expect(call?.request.amount).toEqual({ amount: 19.99, currency: 'EUR', minorUnits: 1999n })

    const payment = await eventually(async () => {
      const listed = await api('GET', `/payments?charge=${charge.body.id}`)
      expect(listed.body.collection[0]?.status).toBe('succeeded')
      return listed.body.collection[0]
    })
    expect(payment.external_ids).toMatchObject({
      processor: 'ledger_bank',
      transaction_id: 'ledger-txn-1',
    })
    const refund = await api('POST', `/payments/${payment.id}/refund`, { amount: 9.99 })
    expect(refund.body.status).toBe('succeeded')
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

  it('declines with its own code and description', async () => {
    const charge = await harness.api('POST', '/charges', {
      charge_type: 'wallet_onetime',
      amount: 5,
      currency: 'EUR',
      events_url: harness.eventsUrl,
    })
    const answer = await harness.api(
      'POST',
      '/instruments',
      cardFor(charge.body.id, { number: '4000000000000000' }),
    )
    expect(answer.status).toBe(402)
    expect(answer.body).toMatchObject({
      failure_code: '03.03.0000',
      failure_description: 'Wallet refused',
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
    const instrument = await api('POST', '/instruments', cardFor(charge.body.id))
    const thrown = await api('POST', '/payments', {
      instrument: instrument.body.id,
      amount: 10,
      currency: 'USD',
    })
    expect(thrown.status).toBe(402)
    expect(thrown.body.failure_code).toBe('99.02.0004')
    expect((await api('GET', `/payments/${thrown.body.metadata.payment}`)).body.status).toBe(
      'failed',
    )
    const reversal = await api('POST', `/instruments/${instrument.body.id}/reversal`)
    expect(reversal.status).toBe(402)
    expect(reversal.body.failure_code).toBe('99.02.0001')
    expect(errors.some((message) => message.includes('broken_bank threw in capture'))).toBe(true)
    expect(errors.some((message) => message.includes('malformed outcome'))).toBe(true)
  })
})

describe('asynchronous authorizations and reversals', () => {
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
    const instrument = await api('POST', '/instruments', cardFor(charge.body.id))
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
      expect((await api('GET', `/reversals/${reversal.body.id}`)).body.status).toBe('succeeded')
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
  ])('refuses %s at start-up', async (_, processor, message) => {
    const start = startSandbox({ port: 0, processors: [processor] })
    await expect(start).rejects.toThrow(SandboxError)
    await expect(start).rejects.toThrow(message)
  })
})
