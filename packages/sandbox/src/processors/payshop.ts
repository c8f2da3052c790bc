import { defineChargeType } from './charge-type'
import { noCustomerDetails, referenceDigits, referenceProcessor } from './payment-reference'

const day = 24 * 60 * 60 * 1_000

/**
 * Payshop, Portugal's network of shops and post offices: the customer pays a 13-digit
 * reference at the counter. A Payshop payment cannot be refunded through the API.
 */
export const payshopReference = defineChargeType({
  id: 'payshop_reference',
  label: 'Payshop reference',
  recurring: false,
  instrumentRequest: noCustomerDetails,
  example: {},
  refundable: false,
  currencies: ['EUR'],
})

/**
 * The Payshop network (channel `payshop_reference_payshop`): `redirect.parameters` has
 * `reference` (13 digits), `amount`, `currency` and `expires_at`, 7 days after the request.
 */
export const payshopProcessor = referenceProcessor({
  name: 'payshop',
  chargeType: payshopReference,
  descriptor: 'CHARGEKIT*PAYSHOP',
  settlementDelayMs: day,
  payableForMs: 7 * day,
  reference: (instrumentId) => ({ reference: referenceDigits(instrumentId, 13) }),
})
