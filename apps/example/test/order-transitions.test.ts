import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Order } from '../src/orders/order.js'
import { type OrderChange, orderTransitions } from '../src/orders/order-transitions.js'

function order(overrides: Partial<Order> = {}): Order {
  return {
    id: 'ord_1',
    productId: 'p',
    description: 'Kettle',
    amountMinor: 5900n,
    currency: 'USD',
    flow: 'pay',
    status: 'awaiting_payment',
    chargeId: 'ch_1',
    instrumentId: null,
    paymentId: null,
    capturedMinor: 0n,
    refundedMinor: 0n,
    cardBrand: null,
    cardLast4: null,
    customerAction: null,
    failure: null,
    version: 1,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...overrides,
  }
}

const charge = { id: 'ch_1' }
const instrument = (capturedOnCreation: boolean) => ({
  id: 'in_1',
  captured_on_creation: capturedOnCreation,
  params: { brand: 'VISA', last_4_digits: '4242' },
})
/** A delivered event: its type and the objects the transitions read. */
interface TestEvent {
  type: string
  [object: string]: unknown
}
const event = (type: string, parts: Record<string, unknown> = {}): TestEvent => ({
  type,
  charge,
  ...parts,
})

/** What the webhook receiver does: the transition of the event's type, none for the others. */
function orderChangeFor(order: Order, delivered: TestEvent): OrderChange | null {
  const transitions = orderTransitions as Record<
    string,
    (order: Order, event: never) => OrderChange | null
  >
  return transitions[delivered.type]?.(order, delivered as never) ?? null
}
const payment = { id: 'pa_1', amount: 59, currency: 'USD' }

function apply(start: Order, events: TestEvent[]): Order {
  let current = start
  for (const next of events) current = { ...current, ...orderChangeFor(current, next) }
  return current
}

describe('orderChangeFor', () => {
  it('pays on instrument.authorized when captured on creation, as the service advises', () => {
    const change = orderChangeFor(
      order(),
      event('instrument.authorized', { instrument: instrument(true) }),
    )
    expect(change).toMatchObject({ status: 'paid', instrumentId: 'in_1', cardLast4: '4242' })
  })

  it('only holds the funds when not captured on creation; capture then pays', () => {
    const held = apply(order({ flow: 'authorize' }), [
      event('instrument.authorized', { instrument: instrument(false) }),
    ])
    expect(held.status).toBe('authorized')
    const paid = apply(held, [event('payment.success', { payment, instrument: instrument(true) })])
    expect(paid).toMatchObject({ status: 'paid', paymentId: 'pa_1', capturedMinor: 5900n })
  })

  it('reaches the same state whatever order the deliveries arrive in, and ignores repeats', () => {
    const events = [
      event('charge.created'),
      event('charge.confirmed'),
      event('instrument.created'),
      event('instrument.authorized', { instrument: instrument(true) }),
      event('payment.success', { payment, instrument: instrument(true) }),
    ]
    fc.assert(
      fc.property(
        fc.shuffledSubarray(events, { minLength: events.length }),
        fc.array(fc.constantFrom(...events), { maxLength: 4 }),
        (shuffled, repeats) => {
          const final = apply(order(), [...shuffled, ...repeats])
          expect(final).toMatchObject({
            status: 'paid',
            paymentId: 'pa_1',
            capturedMinor: 5900n,
            instrumentId: 'in_1',
            cardLast4: '4242',
          })
        },
      ),
    )
  })

  it('keeps a card declined after its 3-D Secure page payable, whichever event arrives first', () => {
    const pending = event('instrument.pending', {
      instrument: { id: 'in_1', redirect: { url: 'https://acs.example/3ds', method: 'GET' } },
    })
    const declined = event('instrument.invalid', {
      instrument: { id: 'in_1', failure_code: '03.03.0000', failure_description: 'x' },
    })
    for (const events of [
      [pending, declined],
      [declined, pending],
    ]) {
      expect(apply(order(), events)).toMatchObject({
        status: 'awaiting_payment',
        failure: { step: 'instrument', code: '03.03.0000' },
      })
    }
    // Another card's page still moves the order on.
    const nextCard = event('instrument.pending', {
      instrument: { id: 'in_2', redirect: { url: 'https://acs.example/3ds', method: 'GET' } },
    })
    expect(apply(order(), [declined, pending, nextCard])).toMatchObject({
      status: 'processing',
      instrumentId: 'in_2',
    })
  })

  it('counts partial refunds up to refunded', () => {
    const paid = order({ status: 'paid', paymentId: 'pa_1', capturedMinor: 5900n })
    const refund = (id: string, amount: number) =>
      event('refund.success', { refund: { id, amount } })
    const partly = apply(paid, [refund('re_1', 20.5)])
    expect(partly).toMatchObject({ status: 'partially_refunded', refundedMinor: 2050n })
    expect(apply(partly, [refund('re_2', 38.5)])).toMatchObject({
      status: 'refunded',
      refundedMinor: 5900n,
    })
  })

  it('cancels an authorized order on reversal.success, and nothing else', () => {
    const reversal = event('reversal.success', { reversal: { id: 'rv_1' } })
    expect(orderChangeFor(order({ status: 'authorized' }), reversal)).toMatchObject({
      status: 'cancelled',
    })
    expect(orderChangeFor(order({ status: 'paid' }), reversal)).toBeNull()
  })

  it('keeps a declined card retryable and records why', () => {
    const declined = event('instrument.invalid', {
      instrument: {
        id: 'in_1',
        failure_code: '03.03.0000',
        failure_description: 'Card is Declined',
      },
    })
    expect(orderChangeFor(order({ status: 'processing' }), declined)).toEqual({
      status: 'awaiting_payment',
      instrumentId: 'in_1',
      failure: { step: 'instrument', code: '03.03.0000', description: 'Card is Declined' },
    })
    // a late decline of an earlier attempt never undoes a paid order
    expect(orderChangeFor(order({ status: 'paid' }), declined)).toBeNull()
  })

  it('fails the order on a declined charge, but not on Too Many Tries (a new charge follows)', () => {
    const declined = (code: string) =>
      orderChangeFor(
        order(),
        event('charge.error', {
          charge: { id: 'ch_1', failure_code: code, failure_description: 'x' },
        }),
      )
    expect(declined('03.03.0000')).toMatchObject({ status: 'failed' })
    const stopped = declined('02.01.0000')
    expect(stopped).toEqual({
      failure: { step: 'charge', code: '02.01.0000', description: 'x' },
    })
  })

  it('marks a failed automatic capture, but keeps an authorized order capturable', () => {
    const failed = event('payment.error', {
      instrument: instrument(true),
      payment: {
        ...payment,
        failure_code: '02.03.0000',
        failure_description: 'Insufficient Funds',
      },
    })
    expect(orderChangeFor(order({ status: 'paid' }), failed)).toMatchObject({
      status: 'payment_failed',
    })
    expect(orderChangeFor(order({ status: 'authorized' }), failed)).toEqual({
      failure: { step: 'payment', code: '02.03.0000', description: 'Insufficient Funds' },
    })
  })

  it('a declined automatic capture keeps the authorization: retry pays, reversal cancels', () => {
    const declined = event('payment.error', {
      instrument: instrument(true),
      payment: { ...payment, failure_code: '02.04.0000', failure_description: 'Temporary Issue' },
    })
    const failed = apply(order({ status: 'paid', instrumentId: 'in_1' }), [declined])
    expect(failed).toMatchObject({ status: 'payment_failed', failure: { step: 'payment' } })
    // Declined again: still held, with the newest decline shown.
    const again = event('payment.error', {
      instrument: instrument(true),
      payment: { ...payment, id: 'pa_2', failure_code: '02.01.0000' },
    })
    expect(apply(failed, [again])).toMatchObject({
      status: 'payment_failed',
      failure: { code: '02.01.0000' },
    })
    const retried = event('payment.success', {
      payment: { ...payment, id: 'pa_3' },
      instrument: instrument(true),
    })
    expect(apply(failed, [retried])).toMatchObject({
      status: 'paid',
      paymentId: 'pa_3',
      capturedMinor: 5900n,
      failure: null,
    })
    const reversed = event('reversal.success', { reversal: { id: 'rv_1' } })
    expect(apply(failed, [reversed])).toMatchObject({ status: 'cancelled', failure: null })
  })

  it('a capture decline that overtakes instrument.authorized keeps its authorization', () => {
    const declined = (capturedOnCreation: boolean) =>
      event('payment.error', {
        instrument: instrument(capturedOnCreation),
        payment: { ...payment, failure_code: '03.03.0001' },
      })
    const authorized = (capturedOnCreation: boolean) =>
      event('instrument.authorized', { instrument: instrument(capturedOnCreation) })
    // Captured on creation: the automatic capture failed.
    expect(
      apply(order({ status: 'processing' }), [declined(true), authorized(true)]),
    ).toMatchObject({ status: 'payment_failed', instrumentId: 'in_1', cardLast4: '4242' })
    // Authorize only: the shop's own capture failed; the funds are still held.
    expect(
      apply(order({ status: 'processing', flow: 'authorize' }), [
        declined(false),
        authorized(false),
      ]),
    ).toMatchObject({ status: 'authorized', instrumentId: 'in_1', failure: { step: 'payment' } })
  })

  it('a late success of an earlier step never hides the decline of a later one', () => {
    const refundDeclined = {
      step: 'refund' as const,
      code: '04.02.0000',
      description: 'Timeout Communicating With Processor',
    }
    // The refund was declined before payment.success of the capture reached the shop.
    const capturedLate = apply(
      order({ status: 'authorized', flow: 'authorize', failure: refundDeclined }),
      [event('payment.success', { payment, instrument: instrument(true) })],
    )
    expect(capturedLate).toMatchObject({ status: 'paid', failure: refundDeclined })
    const authorizedLate = apply(
      order({
        status: 'processing',
        flow: 'authorize',
        failure: { ...refundDeclined, step: 'payment' },
      }),
      [event('instrument.authorized', { instrument: instrument(false) })],
    )
    expect(authorizedLate).toMatchObject({ status: 'authorized', failure: { step: 'payment' } })
    // The success of the declined step itself clears it.
    const cardDeclined = { step: 'instrument' as const, code: '03.03.0000', description: null }
    expect(
      apply(order({ status: 'processing', failure: cardDeclined }), [
        event('instrument.authorized', { instrument: instrument(true) }),
      ]),
    ).toMatchObject({ status: 'paid', failure: null })
  })

  describe('payments the customer makes outside the shop', () => {
    const expiresAt = '2026-11-28T14:05:00.000Z'
    const mbwayPending = event('instrument.pending', {
      instrument: {
        id: 'in_1',
        redirect: {
          url: null,
          method: null,
          parameters: { phone_number: '91*****78', expires_at: expiresAt },
        },
      },
    })
    const referencePending = event('instrument.pending', {
      instrument: {
        id: 'in_1',
        redirect: {
          url: null,
          method: null,
          parameters: {
            entity: '21098',
            reference: '123456789',
            amount: 18.5,
            currency: 'EUR',
            expires_at: expiresAt,
          },
        },
      },
    })
    const invalid = (code: string) =>
      event('instrument.invalid', {
        instrument: { id: 'in_1', failure_code: code, failure_description: 'x' },
      })
    const euros = { currency: 'EUR', amountMinor: 1850n }

    it('waits for the customer with what they must do: the MB WAY phone, or the reference', () => {
      expect(orderChangeFor(order({ flow: 'mbway', ...euros }), mbwayPending)).toEqual({
        status: 'awaiting_customer',
        instrumentId: 'in_1',
        customerAction: { method: 'mbway', phoneNumber: '91*****78', expiresAt },
      })
      expect(orderChangeFor(order({ flow: 'multibanco', ...euros }), referencePending)).toEqual({
        status: 'awaiting_customer',
        instrumentId: 'in_1',
        customerAction: {
          method: 'multibanco',
          entity: '21098',
          reference: '123456789',
          amountMinor: 1850n,
          currency: 'EUR',
          expiresAt,
        },
      })
      // Parameters the shop cannot show: it waits for the webhook, as for a card.
      const malformed = event('instrument.pending', {
        instrument: { id: 'in_1', redirect: { url: null, parameters: { reference: '12' } } },
      })
      expect(orderChangeFor(order({ flow: 'multibanco' }), malformed)).toMatchObject({
        status: 'processing',
      })
    })

    it('pays on approval, expires on 03.00.0002, fails on a refusal; cards still retry', () => {
      const mbway = apply(order({ flow: 'mbway', ...euros }), [mbwayPending])
      expect(
        apply(mbway, [event('instrument.authorized', { instrument: instrument(true) })]),
      ).toMatchObject({ status: 'paid', customerAction: { method: 'mbway' } })
      expect(apply(mbway, [invalid('03.00.0002')])).toMatchObject({
        status: 'expired',
        failure: { step: 'instrument', code: '03.00.0002' },
      })
      expect(apply(mbway, [invalid('03.00.0001')])).toMatchObject({
        status: 'failed',
        failure: { code: '03.00.0001' },
      })
      const reference = apply(order({ flow: 'multibanco', ...euros }), [referencePending])
      expect(
        apply(reference, [event('payment.success', { payment, instrument: instrument(true) })]),
      ).toMatchObject({
        status: 'paid',
        paymentId: 'pa_1',
      })
      expect(apply(reference, [invalid('03.00.0002')])).toMatchObject({ status: 'expired' })
      expect(apply(order({ status: 'processing' }), [invalid('03.00.0002')]).status).toBe(
        'awaiting_payment',
      )
    })

    it('reaches the same state whatever order the deliveries arrive in', () => {
      const paid = [
        referencePending,
        event('instrument.authorized', { instrument: instrument(true) }),
        event('payment.success', { payment, instrument: instrument(true) }),
      ]
      const expired = [referencePending, invalid('03.00.0002')]
      const deliveries = fc
        .constantFrom(paid, expired)
        .chain((events) =>
          fc.tuple(
            fc.constant(events),
            fc.shuffledSubarray(events, { minLength: events.length }),
            fc.array(fc.constantFrom(...events), { maxLength: 3 }),
          ),
        )
      fc.assert(
        fc.property(deliveries, ([events, shuffled, repeats]) => {
          const final = apply(order({ flow: 'multibanco', ...euros }), [...shuffled, ...repeats])
          expect(final.status).toBe(events === paid ? 'paid' : 'expired')
        }),
      )
    })
  })
})
