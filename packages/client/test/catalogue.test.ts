import {
  type ErrorCodeInfo,
  encodeTestAmount,
  errorCodes,
  type TestElement,
  testElements,
} from '@chargekit/errors'
import type { TestSandbox } from '@chargekit/sandbox/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChargekitClient, PaymentError } from '../src/index'
import { authorize, capture, card, chargeParams } from './support/flows'
import { startClientSandbox, testClient } from './support/sandbox'

let env: TestSandbox
let client: ChargekitClient

beforeAll(async () => {
  env = await startClientSandbox()
  // Hundreds of calls about what the answers mean, not how they travel: in-process.
  client = testClient(env.sandbox.url, { maxRetries: 0, fetch: env.fetch })
})
afterAll(() => env.close())

/**
 * Runs the lifecycle up to `element` with the charge amount that encodes `code` there (error
 * testing by amount): every earlier step must succeed, the coded step must fail.
 */
async function failAt(code: string, element: TestElement): Promise<unknown> {
  const amount = encodeTestAmount(code, element)
  const overrides = { amount, currency: 'USD' }
  switch (element) {
    case 'charge':
      return client.charges.create(chargeParams(env.eventsUrl, overrides))
    case 'instrument': {
      const charge = await client.charges.create(chargeParams(env.eventsUrl, overrides))
      return client.instruments.create({ charge: charge.id, ...card })
    }
    case 'payment': {
      const { instrument } = await authorize(client, env.eventsUrl, overrides)
      return client.payments.create({ instrument: instrument.id, amount, currency: 'USD' })
    }
    case 'refund': {
      const { payment } = await capture(client, env.eventsUrl, overrides)
      return client.payments.refund(payment.id, { amount })
    }
    case 'reversal': {
      const { instrument } = await authorize(client, env.eventsUrl, overrides)
      return client.instruments.reverse(instrument.id)
    }
  }
}

/** The failed object, fetched back: it persists in its failed state. */
async function storedFailure(element: TestElement, id: string) {
  switch (element) {
    case 'charge':
      return (await client.charges.retrieve(id)).failure_code
    case 'instrument': {
      const instrument = await client.instruments.retrieve(id)
      expect(instrument.status).toBe('invalid')
      return instrument.failure_code
    }
    case 'payment': {
      const payment = await client.payments.retrieve(id)
      expect(payment.success).toBe(false)
      return payment.failure_code
    }
    case 'refund': {
      const refund = await client.refunds.retrieve(id)
      expect(refund.success).toBe(false)
      return refund.failure_code
    }
    case 'reversal':
      // No GET for reversals: the instrument stays authorized after a failed reversal.
      return undefined
  }
}

describe('every catalogue code at every element ends in the right typed error', () => {
  it.each(errorCodes.map((info) => [info.code, info] as const))(
    '%s',
    async (_code, info: ErrorCodeInfo) => {
      for (const element of testElements) {
        const error = await failAt(info.code, element).then(
          () => {
            throw new Error(`${info.code} at ${element} succeeded`)
          },
          (caught: unknown) => caught,
        )
        expect(error, `${info.code} at ${element}`).toBeInstanceOf(PaymentError)
        const decline = error as PaymentError
        expect(decline).toMatchObject({
          status: 402,
          code: info.code,
          category: info.category,
          designation: info.designation,
          element,
          retryable: info.retryable,
        })
        expect(decline.objectId).toEqual(expect.any(String))
        // The failed object and every object it derives from, by kind.
        expect(decline.ids[element]).toBe(decline.objectId)
        const parents = {
          charge: [],
          instrument: ['charge'],
          payment: ['charge', 'instrument'],
          refund: ['charge', 'instrument', 'payment'],
          reversal: ['charge', 'instrument'],
        }[element]
        for (const parent of parents) {
          expect(
            decline.ids[parent as keyof typeof decline.ids],
            `${element} names its ${parent}`,
          ).toEqual(expect.any(String))
        }
        expect(
          decline.message.startsWith(
            `${element[0]?.toUpperCase()}${element.slice(1)} ${decline.objectId} was declined: ${info.code} ${info.designation}`,
          ),
        ).toBe(true)
        const stored = await storedFailure(element, decline.objectId as string)
        if (stored !== undefined) expect(stored).toBe(info.code)
      }
    },
  )

  it('an amount that encodes nothing succeeds at every step', async () => {
    const { charge, payment } = await capture(client, env.eventsUrl, { amount: 42.25 })
    expect(payment.success).toBe(true)
    expect((await client.payments.refund(payment.id, { amount: 2.25 })).success).toBe(true)
    const { instrument } = await authorize(client, env.eventsUrl, { amount: 6020000.6 })
    expect((await client.instruments.reverse(instrument.id)).success).toBe(true)
    expect(charge.failure_code).toBeNull()
  })
})
