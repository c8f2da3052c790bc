// The operation table: every operation of the service, declared once. The sandbox registers its
// routes and its public-key scope from it, the clients build their methods from it, and the
// OpenAPI document and the endpoint list in docs/ are generated from it. Adding an endpoint is
// one entry here (and in `operationTable` below) plus its handler in the sandbox; a test fails
// while either is missing.
//
// Its own entry (`@chargekit/schemas/operations`), without zod: bodies are named, not imported,
// and each operation is its own export, so a browser bundle takes only the operations it calls.
import type { Operation } from './operation'

// Every 409 of the catalogue a transition can answer, by what it means.
const notAuthorized = '05.04.0002'
const statusForbids = '05.04.0001'
const amountMismatch = '01.02.0000'
const duplicate = '03.04.0000'

// Charges

export const chargesCreate = {
  id: 'charges.create',
  method: 'POST',
  path: '/v2/charges',
  status: 201,
  keys: 'public',
  summary: 'Create a charge',
  description:
    'Starts a transaction. With the private key the charge is confirmed at once (`charge.created`, then `charge.confirmed`) unless `confirmed` is false; with the public key it is always created unconfirmed, for the merchant to confirm. A charge amount coded with `.10` fails the charge step.',
  body: 'CreateChargeRequest',
  answer: 'Charge',
  declines: 'charge',
  publicKeyForbids: '`confirmed: true`: the merchant confirms with the private key',
} as const satisfies Operation

export const chargesTypes = {
  id: 'charges.types',
  method: 'GET',
  path: '/v2/charges/types',
  status: 200,
  keys: 'public',
  summary: 'List the charge types on offer',
  description:
    "The account's charge types, each with the JSON Schema of its instrument request, to draw a payment form from.",
  answer: 'ChargeTypeList',
} as const satisfies Operation

export const chargesRetrieve = {
  id: 'charges.retrieve',
  method: 'GET',
  path: '/v2/charges/{id}',
  status: 200,
  keys: 'public',
  summary: 'Retrieve a charge',
  answer: 'Charge',
} as const satisfies Operation

export const chargesConfirm = {
  id: 'charges.confirm',
  method: 'POST',
  path: '/v2/charges/{id}/confirm',
  status: 201,
  keys: 'private',
  summary: 'Confirm a charge',
  description:
    'Runs the charge step of a charge created unconfirmed (`charge.confirmed`), so an instrument can be created from it. A confirmed charge answers unchanged.',
  answer: 'Charge',
  declines: 'charge',
  refusesFailedCharge: true,
} as const satisfies Operation

export const chargesList = {
  id: 'charges.list',
  method: 'GET',
  path: '/v2/charges',
  status: 200,
  keys: 'private',
  summary: 'List charges',
  query: 'ChargeListQuery',
  answer: { list: 'Charge' },
} as const satisfies Operation

// Instruments

export const instrumentsCreate = {
  id: 'instruments.create',
  method: 'POST',
  path: '/v2/instruments',
  status: 201,
  keys: 'public',
  summary: 'Create an instrument',
  description:
    "What the customer gives for a confirmed charge, by its charge type: a card, an MB WAY phone number, or only the charge. A charge takes at most one live instrument. Captured on creation, the payment's decline answers 402 naming the payment.",
  body: 'CreateInstrumentRequest',
  answer: 'Instrument',
  declines: 'instrument',
  conflicts: ['05.03.0000', duplicate],
  refusesFailedCharge: true,
} as const satisfies Operation

export const instrumentsList = {
  id: 'instruments.list',
  method: 'GET',
  path: '/v2/instruments',
  status: 200,
  keys: 'private',
  summary: 'List instruments',
  query: 'InstrumentListQuery',
  answer: { list: 'Instrument' },
} as const satisfies Operation

export const instrumentsRetrieve = {
  id: 'instruments.retrieve',
  method: 'GET',
  path: '/v2/instruments/{id}',
  status: 200,
  keys: 'public',
  summary: 'Retrieve an instrument',
  answer: 'Instrument',
} as const satisfies Operation

export const instrumentsReverse = {
  id: 'instruments.reverse',
  method: 'POST',
  path: '/v2/instruments/{id}/reversal',
  status: 201,
  keys: 'private',
  summary: 'Reverse an instrument',
  description:
    'Voids an authorized instrument with nothing captured, for its full amount (`reversal.*`); the instrument becomes invalid.',
  body: 'CreateReversalRequest',
  answer: 'Reversal',
  declines: 'reversal',
  conflicts: [notAuthorized, statusForbids, duplicate, amountMismatch],
} as const satisfies Operation

export const instrumentsInvalidate = {
  id: 'instruments.invalidate',
  method: 'DELETE',
  path: '/v2/instruments/{id}',
  status: 204,
  keys: 'private',
  summary: 'Invalidate an instrument',
  description:
    'No payment can be created from it any more (`instrument.invalid`). An authorized instrument with nothing captured is reversed first, releasing the funds. Invalidating twice is as good as once.',
  answer: 'nothing',
  declines: 'reversal',
} as const satisfies Operation

export const instrumentsRedirect = {
  id: 'instruments.redirect',
  method: 'GET',
  path: '/v2/instruments/{id}/redirect',
  status: 200,
  keys: 'none',
  summary: "The customer's 3-D Secure or approval page",
  description:
    "Where `instrument.redirect.url` sends the customer's browser, with the account's public key in the query. While the instrument waits it shows the challenge; once decided it sends the customer back to the charge's `redirect_url` with `?instrument={id}` (303).",
  answer: 'page',
} as const satisfies Operation

export const instrumentsCompleteChallenge = {
  id: 'instruments.completeChallenge',
  method: 'POST',
  path: '/v2/3ds/{instrumentId}/complete',
  status: 200,
  keys: 'none',
  summary: "The challenge page's form",
  description:
    "The form of the challenge page posts the customer's choice with the challenge's token; the answer sends the customer back to the shop (303) or shows the result.",
  answer: 'page',
  sandboxOnly: true,
} as const satisfies Operation

// Payments and refunds

export const paymentsCreate = {
  id: 'payments.create',
  method: 'POST',
  path: '/v2/payments',
  status: 201,
  keys: 'private',
  summary: 'Capture a payment',
  description:
    'Captures (part of) an authorized instrument. A one-time instrument takes at most what it authorized; a recurring one is a token for any number of payments.',
  body: 'CreatePaymentRequest',
  answer: 'Payment',
  declines: 'payment',
  conflicts: [notAuthorized, statusForbids, amountMismatch],
} as const satisfies Operation

export const paymentsRetrieve = {
  id: 'payments.retrieve',
  method: 'GET',
  path: '/v2/payments/{id}',
  status: 200,
  keys: 'private',
  summary: 'Retrieve a payment',
  answer: 'Payment',
} as const satisfies Operation

export const paymentsList = {
  id: 'payments.list',
  method: 'GET',
  path: '/v2/payments',
  status: 200,
  keys: 'private',
  summary: 'List payments',
  query: 'PaymentListQuery',
  answer: { list: 'Payment' },
} as const satisfies Operation

export const paymentsRefund = {
  id: 'payments.refund',
  method: 'POST',
  path: '/v2/payments/{id}/refund',
  status: 201,
  keys: 'private',
  summary: 'Refund a payment',
  description:
    'Refunds (part of) a successful payment. Refunds and open or lost disputes together never exceed what it captured.',
  body: 'CreateRefundRequest',
  answer: 'Refund',
  declines: 'refund',
  conflicts: [statusForbids, amountMismatch, '05.04.0000'],
} as const satisfies Operation

export const refundsCreate = {
  id: 'refunds.create',
  method: 'POST',
  path: '/v2/refunds',
  status: 201,
  keys: 'private',
  summary: 'Refund the payment named in the body',
  description: 'The same refund as `payments.refund`, with the payment named in the body.',
  body: 'CreateRefundOfPaymentRequest',
  answer: 'Refund',
  declines: 'refund',
  conflicts: [statusForbids, amountMismatch, '05.04.0000'],
} as const satisfies Operation

export const refundsRetrieve = {
  id: 'refunds.retrieve',
  method: 'GET',
  path: '/v2/refunds/{id}',
  status: 200,
  keys: 'private',
  summary: 'Retrieve a refund',
  answer: 'Refund',
} as const satisfies Operation

export const refundsList = {
  id: 'refunds.list',
  method: 'GET',
  path: '/v2/refunds',
  status: 200,
  keys: 'private',
  summary: 'List refunds',
  query: 'RefundListQuery',
  answer: { list: 'Refund' },
} as const satisfies Operation

// Objects the API only reads

export const reversalsRetrieve = {
  id: 'reversals.retrieve',
  method: 'GET',
  path: '/v2/reversals/{id}',
  status: 200,
  keys: 'private',
  summary: 'Retrieve a reversal',
  answer: 'Reversal',
} as const satisfies Operation

export const reversalsList = {
  id: 'reversals.list',
  method: 'GET',
  path: '/v2/reversals',
  status: 200,
  keys: 'private',
  summary: 'List reversals',
  query: 'ReversalListQuery',
  answer: { list: 'Reversal' },
} as const satisfies Operation

export const disputesRetrieve = {
  id: 'disputes.retrieve',
  method: 'GET',
  path: '/v2/disputes/{id}',
  status: 200,
  keys: 'private',
  summary: 'Retrieve a dispute',
  answer: 'Dispute',
} as const satisfies Operation

export const disputesList = {
  id: 'disputes.list',
  method: 'GET',
  path: '/v2/disputes',
  status: 200,
  keys: 'private',
  summary: 'List disputes',
  query: 'DisputeListQuery',
  answer: { list: 'Dispute' },
} as const satisfies Operation

export const settlementsRetrieve = {
  id: 'settlements.retrieve',
  method: 'GET',
  path: '/v2/settlements/{id}',
  status: 200,
  keys: 'private',
  summary: 'Retrieve a settlement',
  answer: 'Settlement',
} as const satisfies Operation

export const settlementsList = {
  id: 'settlements.list',
  method: 'GET',
  path: '/v2/settlements',
  status: 200,
  keys: 'private',
  summary: 'List settlements',
  query: 'ListQuery',
  answer: { list: 'Settlement' },
} as const satisfies Operation

// Events

export const eventsRetrieve = {
  id: 'events.retrieve',
  method: 'GET',
  path: '/v2/events/{id}',
  status: 200,
  keys: 'private',
  summary: 'Retrieve an event',
  description:
    'The full form: the objects of the transaction as they stood when the event happened. A receiver fetches it to verify a delivery.',
  answer: 'Event',
} as const satisfies Operation

export const eventsList = {
  id: 'events.list',
  method: 'GET',
  path: '/v2/events',
  status: 200,
  keys: 'private',
  summary: 'Search events',
  query: 'EventListQuery',
  answer: { list: 'Event' },
} as const satisfies Operation

export const eventsRedeliver = {
  id: 'events.redeliver',
  method: 'POST',
  path: '/v2/events/{id}/redeliver',
  status: 200,
  keys: 'private',
  summary: 'Deliver an event again',
  description: 'One more delivery attempt now, outside the schedule, appended to `retries_log`.',
  answer: 'Event',
} as const satisfies Operation

export const eventsDismiss = {
  id: 'events.dismiss',
  method: 'POST',
  path: '/v2/events/{id}/dismiss',
  status: 200,
  keys: 'private',
  summary: 'Dismiss an event',
  description:
    'Sets `dismissed_at`, a mark for your own bookkeeping; dismissing twice keeps the first time.',
  answer: 'Event',
} as const satisfies Operation

// Test helpers: what the payment provider and the customer would do

export const testHelpersSettle = {
  id: 'testHelpers.settle',
  method: 'POST',
  path: '/v2/test/settlements',
  status: 201,
  keys: 'private',
  summary: 'Settle everything settleable',
  description:
    'Settles every successful, unsettled payment and refund of the account (`payment.settled`, `refund.settled`, `instrument.settled`).',
  answer: 'Settlement',
  sandboxOnly: true,
} as const satisfies Operation

export const testHelpersDispute = {
  id: 'testHelpers.dispute',
  method: 'POST',
  path: '/v2/test/payments/{paymentId}/dispute',
  status: 201,
  keys: 'private',
  summary: 'The customer disputes a payment',
  body: 'CreateDisputeRequest',
  answer: 'Dispute',
  conflicts: [statusForbids, amountMismatch],
  sandboxOnly: true,
} as const satisfies Operation

export const testHelpersSettleDispute = {
  id: 'testHelpers.settleDispute',
  method: 'POST',
  path: '/v2/test/disputes/{disputeId}/settle',
  status: 200,
  keys: 'private',
  summary: 'The processor decides a dispute',
  body: 'SettleDisputeRequest',
  answer: 'Dispute',
  conflicts: [statusForbids],
  sandboxOnly: true,
} as const satisfies Operation

const customerAnswer = {
  method: 'POST',
  status: 200,
  keys: 'private',
  answer: 'Instrument',
  conflicts: [statusForbids],
  sandboxOnly: true,
} as const

export const testHelpersApproveInstrument = {
  ...customerAnswer,
  id: 'testHelpers.approveInstrument',
  path: '/v2/test/instruments/{instrumentId}/approve',
  summary: 'The customer approves a pending instrument',
  description:
    'On the approval page (PayPal, 3-D Secure) or in the app (MB WAY). Answers the instrument as it is now: authorized, or invalid when the capture on creation failed it.',
} as const satisfies Operation

export const testHelpersDeclineInstrument = {
  ...customerAnswer,
  id: 'testHelpers.declineInstrument',
  path: '/v2/test/instruments/{instrumentId}/decline',
  summary: 'The customer refuses a pending instrument',
} as const satisfies Operation

export const testHelpersPayReference = {
  ...customerAnswer,
  id: 'testHelpers.payReference',
  path: '/v2/test/instruments/{instrumentId}/pay',
  summary: "The customer pays a pending instrument's payment reference",
} as const satisfies Operation

export const testHelpersExpireInstrument = {
  ...customerAnswer,
  id: 'testHelpers.expireInstrument',
  path: '/v2/test/instruments/{instrumentId}/expire',
  summary: "A pending instrument's deadline passes now",
} as const satisfies Operation

export const testHelpersListRequests = {
  id: 'testHelpers.listRequests',
  method: 'GET',
  path: '/v2/requests',
  status: 200,
  keys: 'private',
  summary: "List the account's recent requests",
  description:
    'Newest first, each with the integration warnings the sandbox found in it. Never headers or bodies.',
  query: 'ListQuery',
  answer: { list: 'RecordedRequest' },
  sandboxOnly: true,
} as const satisfies Operation

// The contract itself

export const openapiRetrieve = {
  id: 'openapi.retrieve',
  method: 'GET',
  path: '/v2/openapi.json',
  status: 200,
  keys: 'none',
  summary: 'This OpenAPI document',
  description: 'Also served at `/openapi.json`; the reference rendered from it is at `/docs`.',
  answer: 'document',
  sandboxOnly: true,
} as const satisfies Operation

/**
 * Every operation, in the order the sandbox registers them (a fixed path before a parameter in
 * the same place: `/v2/charges/types` before `/v2/charges/{id}`) and the documents list them.
 */
export const operationTable = [
  chargesCreate,
  chargesTypes,
  chargesRetrieve,
  chargesConfirm,
  chargesList,
  instrumentsCreate,
  instrumentsList,
  instrumentsRetrieve,
  instrumentsReverse,
  instrumentsInvalidate,
  instrumentsRedirect,
  instrumentsCompleteChallenge,
  paymentsCreate,
  paymentsRetrieve,
  paymentsList,
  paymentsRefund,
  refundsCreate,
  refundsRetrieve,
  refundsList,
  reversalsRetrieve,
  reversalsList,
  disputesRetrieve,
  disputesList,
  settlementsRetrieve,
  settlementsList,
  eventsRetrieve,
  eventsList,
  eventsRedeliver,
  eventsDismiss,
  testHelpersSettle,
  testHelpersDispute,
  testHelpersSettleDispute,
  testHelpersApproveInstrument,
  testHelpersDeclineInstrument,
  testHelpersPayReference,
  testHelpersExpireInstrument,
  testHelpersListRequests,
  openapiRetrieve,
] as const

/** Any operation of the table, by its literal type. */
export type TableOperation = (typeof operationTable)[number]

/** The id of every operation: `charges.create`, `testHelpers.settle`, … */
export type OperationId = TableOperation['id']

/** The operation of `Id`, with its literal path, scope and schema names. */
export type OperationOf<Id extends OperationId> = Extract<TableOperation, { id: Id }>

export type {
  DeclinedStep,
  KeyScope,
  Operation,
  OperationAnswer,
  SchemaName,
} from './operation'
export {
  apiRoot,
  expandPath,
  idExample,
  pathParameters,
  pathPattern,
  takesIdempotencyKey,
} from './operation'
