import { cardDetailsSchema } from '@chargekit/schemas'
import { defineChargeType } from '../processors/charge-type'
import { cardParams, isCardExpired } from './card-params'

const cardBehaviour = {
  instrumentRequest: cardDetailsSchema,
  example: {
    name: 'Test Customer',
    number: '4242424242424242',
    expiration_month: 12,
    expiration_year: 2035,
    cvc: '123',
  },
  params: (card, { fingerprint, enable3ds }) => cardParams(card, fingerprint, enable3ds),
  // A card is refused once past its expiry month, whatever the processor would say.
  screen: (card, { now }) =>
    isCardExpired(card, now) ? { status: 'failed', code: '03.00.0002' } : undefined,
} satisfies Partial<Parameters<typeof defineChargeType<typeof cardDetailsSchema>>[0]>

/**
 * One card payment (`card_onetime`, the name the service's v2 documentation uses): captured
 * when the instrument is authorized, by default.
 */
export const cardOnetime = defineChargeType({
  id: 'card_onetime',
  label: 'Card one-time payment',
  recurring: false,
  ...cardBehaviour,
})

/** A card kept on file (`card_recurring`): one instrument, many payments. */
export const cardRecurring = defineChargeType({
  id: 'card_recurring',
  label: 'Card recurring payment',
  recurring: true,
  ...cardBehaviour,
})

/**
 * One card payment under the name the service's later API gives it (`card`), as integrations
 * written against that API send it: the behaviour of `card_onetime` with channels of its own
 * (`card_no_processor`).
 */
export const card = defineChargeType({
  id: 'card',
  label: 'Card payment',
  recurring: false,
  ...cardBehaviour,
})
