import { defineChargeType } from './charge-type'
import { noCustomerDetails, referenceDigits, referenceProcessor } from './payment-reference'

const day = 24 * 60 * 60 * 1_000

/**
 * Multibanco, Portugal's ATM and home-banking network: the customer pays an entity and a
 * 9-digit reference. A Multibanco payment cannot be refunded through the API.
 */
export const multibanco = defineChargeType({
  id: 'multibanco',
  label: 'Multibanco',
  recurring: false,
  instrumentRequest: noCustomerDetails,
  example: {},
  refundable: false,
  currencies: ['EUR'],
})

/** The sandbox's Multibanco entity: every reference is paid to it. */
const sandboxEntity = '21098'

/**
 * The Multibanco network (channel `multibanco_multibanco`): `redirect.parameters` has `entity`,
 * `reference` (9 digits), `amount`, `currency` and `expires_at`, 3 days after the request.
 */
export const multibancoProcessor = referenceProcessor({
  name: 'multibanco',
  chargeType: multibanco,
  descriptor: 'CHARGEKIT*MULTIBANCO',
  settlementDelayMs: day,
  payableForMs: 3 * day,
  reference: (instrumentId) => ({
    entity: sandboxEntity,
    reference: referenceDigits(instrumentId, 9),
  }),
})
