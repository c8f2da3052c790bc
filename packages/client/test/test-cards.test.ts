import { lookupErrorCode } from '@chargekit/errors'
import { type TestCard, testCards } from '@chargekit/sandbox/test-cards'
import { eventually, type TestSandbox } from '@chargekit/sandbox/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { completeChallenge } from '../../../scripts/challenge-form'
import {
  type ChargekitClient,
  type CreateChargeRequest,
  type Instrument,
  type Payment,
  PaymentError,
} from '../src/index'
import { card, chargeParams } from './support/flows'
import { startClientSandbox, testClient } from './support/sandbox'

// Every row of the sandbox's test-card table, through the client over HTTP, on the default card
// channel and on the simulated acquirer: each card's outcome at the step the table names, with
// the catalogue's code and designation.

let env: TestSandbox
let client: ChargekitClient

beforeAll(async () => {
  // The acquirer's 2-second confirmations take 20 ms.
  env = await startClientSandbox({ timeScale: 0.01 })
  client = testClient(env.sandbox.url)
})
afterAll(() => env.close())

const designationOf = (code: string) => lookupErrorCode(code)?.designation

/** What a declined call was declined with, as the client reports it. */
async function declineOf(call: Promise<unknown>) {
  const error = await call.then(
    (answer) => {
      throw new Error(`expected a decline, got ${JSON.stringify(answer)}`)
    },
    (error: unknown) => error,
  )
  expect(error).toBeInstanceOf(PaymentError)
  const { code, failureDescription, element, ids } = error as PaymentError
  return { code, failureDescription, element, ids }
}

async function eventTypesOf(chargeId: string): Promise<string[]> {
  const events = await client.events.list({ charge: chargeId }).toArray({ limit: 50 })
  return events.map((event) => event.type).reverse()
}

/**
 * A capture's outcome once the processor has answered: the default channel answers at once, the
 * acquirer confirms a little later (`payment.pending`, then `payment.success` or
 * `payment.error`).
 */
async function settledPayment(payment: Payment): Promise<Payment> {
  return eventually(async () => {
    const current = await client.payments.retrieve(payment.id)
    expect(current.status).not.toBe('pending')
    return current
  })
}

const channels: { name: string; label: string; sent: Partial<CreateChargeRequest> }[] = [
  { name: 'the default channel', label: 'card_onetime_no_processor', sent: {} },
  {
    name: 'the simulated acquirer',
    label: 'card_onetime_simulated_acquirer',
    sent: { channels: ['card_onetime_simulated_acquirer'] },
  },
]

describe.each(channels)('every test card on $name', ({ label, sent }) => {
  async function charge(overrides: Partial<CreateChargeRequest> = {}) {
    const created = await client.charges.create(
      chargeParams(env.eventsUrl, { ...sent, ...overrides }),
    )
    expect(created.channels?.[0]?.label).toBe(label)
    return created
  }

  async function pay(testCard: TestCard, overrides: Partial<CreateChargeRequest> = {}) {
    const created = await charge(overrides)
    const answer = client.instruments.create({
      charge: created.id,
      ...card,
      number: grouped(testCard.number),
    })
    return { charge: created, answer }
  }

  const approved = testCards.filter(
    (row) =>
      row.declines === undefined &&
      row.threeDSecure === undefined &&
      row.captureDeclines === undefined,
  )
  it.each(approved)('$number: $summary', async (row) => {
    const { charge: paid, answer } = await pay(row)
    expect(await answer).toMatchObject({
      status: 'authorized',
      params: { bin: row.number.slice(0, 6) },
    })
    const [payment] = (await client.payments.list({ charge: paid.id })).collection
    expect(await settledPayment(payment as Payment)).toMatchObject({ status: 'success' })
  })

  it.each(testCards.filter((row) => row.declines !== undefined))(
    '$number: $summary',
    async (row) => {
      const { charge: declined, answer } = await pay(row)
      const decline = await declineOf(answer)
      expect(decline).toMatchObject({
        code: row.declines,
        failureDescription: designationOf(row.declines as string),
        element: 'instrument',
      })
      const instrument = await client.instruments.retrieve(decline.ids.instrument as string)
      expect(instrument).toMatchObject({
        status: 'invalid',
        failure_code: row.declines,
        failure_description: designationOf(row.declines as string),
      })
      const types = await eventTypesOf(declined.id)
      expect(types.at(-1)).toBe('instrument.invalid')
      // A risk code is a risk rule firing.
      expect(types.includes('instrument.risk')).toBe(row.declines?.startsWith('06.'))
    },
  )

  it.each(testCards.filter((row) => row.threeDSecure !== undefined))(
    '$number: $summary',
    async (row) => {
      // Without 3-D Secure, the issuer refuses: it requires it.
      const refused = await declineOf((await pay(row)).answer)
      expect(refused).toMatchObject({
        code: '06.01.0002',
        failureDescription: '3DS Required',
        element: 'instrument',
      })

      // With it, the customer meets the 3-D Secure page and authorizes there.
      const { charge: secured, answer } = await pay(row, {
        instrument_params: { enable3ds: true },
      })
      const pending = await answer
      expect(pending).toMatchObject({ status: 'pending', redirect: { method: 'GET' } })
      const page = await completeChallenge(pending.redirect?.url as string, 'authorize')
      expect(page.status).toBeLessThan(400)
      const answered = await client.instruments.retrieve(pending.id)
      if (row.threeDSecure === 'customer') {
        expect(answered).toMatchObject({ status: 'authorized', redirect: null })
        const [payment] = (await client.payments.list({ charge: secured.id })).collection
        expect(await settledPayment(payment as Payment)).toMatchObject({ status: 'success' })
      } else {
        expect(answered).toMatchObject({
          status: 'invalid',
          failure_code: '06.01.0000',
          failure_description: '3DS Error',
        })
        expect((await eventTypesOf(secured.id)).at(-1)).toBe('instrument.invalid')
      }
    },
  )

  it.each(testCards.filter((row) => row.captureDeclines !== undefined))(
    '$number: $summary',
    async (row) => {
      const code = row.captureDeclines as string
      const expectCaptureDeclined = async (capture: Promise<Payment>) => {
        // The default channel declines at once (402); the acquirer answers later.
        const payment = await capture.then(settledPayment, async (error: unknown) => {
          const decline = await declineOf(Promise.reject(error))
          expect(decline).toMatchObject({ code, element: 'payment' })
          return client.payments.retrieve(decline.ids.payment as string)
        })
        expect(payment).toMatchObject({
          status: 'error',
          failure_code: code,
          failure_description: designationOf(code),
        })
        return payment
      }

      // Authorized, then captured by the merchant: declined, and declined again.
      const { charge: held, answer } = await pay(row, {
        instrument_params: { captured_on_creation: false },
      })
      const instrument: Instrument = await answer
      expect(instrument.status).toBe('authorized')
      for (let attempt = 0; attempt < 2; attempt++) {
        await expectCaptureDeclined(
          client.payments.create({
            instrument: instrument.id,
            amount: held.amount,
            currency: held.currency,
          }),
        )
      }
      // The authorization stays: the merchant may still reverse it.
      expect((await client.instruments.retrieve(instrument.id)).status).toBe('authorized')

      // Captured on creation: the instrument is authorized, its capture declined.
      const { charge: onCreation, answer: captured } = await pay(row)
      const authorized = await captured.then(
        async (created) => created,
        async (error: unknown) => {
          const decline = await declineOf(Promise.reject(error))
          return client.instruments.retrieve(decline.ids.instrument as string)
        },
      )
      expect(authorized.status).toBe('authorized')
      const [payment] = (await client.payments.list({ charge: onCreation.id })).collection
      await expectCaptureDeclined(Promise.resolve(payment as Payment))
      const types = await eventTypesOf(onCreation.id)
      expect(types).toEqual(expect.arrayContaining(['instrument.authorized', 'payment.error']))
      expect(types).not.toContain('instrument.invalid')
    },
  )
})

describe('test cards and error testing by amount on the default channel', () => {
  const declinedCard = testCards.find((row) => row.declines === '03.03.0000') as TestCard
  const captureFailsCard = testCards.find((row) => row.captureDeclines !== undefined) as TestCard

  it('follows the amount alone when it encodes an error: the card is not consulted', async () => {
    // A payment error (.30) paid with the decline card: the card goes through, and the capture
    // fails with the amount's code, failing the instrument as the procedure states.
    const atPayment = await client.charges.create(
      chargeParams(env.eventsUrl, { amount: 2040000.3 }),
    )
    const decline = await declineOf(
      client.instruments.create({ charge: atPayment.id, ...card, number: declinedCard.number }),
    )
    expect(decline).toMatchObject({ code: '02.04.0000', element: 'payment' })
    expect(await eventTypesOf(atPayment.id)).toEqual(
      expect.arrayContaining(['instrument.authorized', 'payment.error', 'instrument.invalid']),
    )

    // An instrument error (.20) paid with the card whose captures fail: the amount's code.
    const atInstrument = await client.charges.create(
      chargeParams(env.eventsUrl, { amount: 2030000.2 }),
    )
    expect(
      await declineOf(
        client.instruments.create({
          charge: atInstrument.id,
          ...card,
          number: captureFailsCard.number,
        }),
      ),
    ).toMatchObject({ code: '02.03.0000', element: 'instrument' })

    // A reversal error (.50) with the card whose captures fail: its capture succeeds.
    const atReversal = await client.charges.create(
      chargeParams(env.eventsUrl, { amount: 5010000.5 }),
    )
    const held = await client.instruments.create({
      charge: atReversal.id,
      ...card,
      number: captureFailsCard.number,
    })
    const payment = await client.payments.create({
      instrument: held.id,
      amount: atReversal.amount,
      currency: atReversal.currency,
    })
    expect(payment.status).toBe('success')
  })

  it('honours the cards on an amount that encodes no catalogue code', async () => {
    const charge = await client.charges.create(chargeParams(env.eventsUrl, { amount: 6020001.2 }))
    expect(
      await declineOf(
        client.instruments.create({ charge: charge.id, ...card, number: declinedCard.number }),
      ),
    ).toMatchObject({ code: '03.03.0000', element: 'instrument' })
  })
})

describe('every card channel', () => {
  const declinedCard = testCards.find((row) => row.declines === '03.03.0000') as TestCard

  it.each([
    'card_onetime_no_processor',
    'card_onetime_simulated_acquirer',
    'card_recurring_no_processor',
    'card_recurring_simulated_acquirer',
    'card_no_processor',
    'card_simulated_acquirer',
  ])('%s declines the decline card', async (label) => {
    const chargeType = label.replace(/_(no_processor|simulated_acquirer)$/, '')
    const charge = await client.charges.create(
      chargeParams(env.eventsUrl, { charge_type: chargeType, channels: [label] }),
    )
    expect(
      await declineOf(
        client.instruments.create({ charge: charge.id, ...card, number: declinedCard.number }),
      ),
    ).toMatchObject({ code: '03.03.0000', failureDescription: 'Card is Declined' })
  })
})

/** The number as a customer types it, in groups of four. */
function grouped(number: string): string {
  return number.replace(/(\d{4})(?=\d)/g, '$1 ')
}
