// The operation table: every operation of the service, declared once. The sandbox registers its
// routes and its public-key scope from it, the clients build their methods from it, and the
// OpenAPI document and the endpoint list in docs/ are generated from it. Adding an endpoint is
// its route here, its entry in `operationTable` below, and its handler in the sandbox; a test
// fails while any of them is missing.
//
// Its own entry (`@chargekit/schemas/operations`), without zod: bodies are named, not imported.
// Each route is its own export and the table's entries are pure, so a browser bundle carries
// only the routes it calls.
import { type OperationRoute, operation } from './operation'

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
  declines: 'charge',
} as const satisfies OperationRoute

export const chargesTypes = {
  id: 'charges.types',
  method: 'GET',
  path: '/v2/charges/types',
} as const satisfies OperationRoute

export const chargesRetrieve = {
  id: 'charges.retrieve',
  method: 'GET',
  path: '/v2/charges/{id}',
  params: { id: 'ch_' },
} as const satisfies OperationRoute

export const chargesConfirm = {
  id: 'charges.confirm',
  method: 'POST',
  path: '/v2/charges/{id}/confirm',
  params: { id: 'ch_' },
  declines: 'charge',
} as const satisfies OperationRoute

export const chargesList = {
  id: 'charges.list',
  method: 'GET',
  path: '/v2/charges',
} as const satisfies OperationRoute

// Instruments

export const instrumentsCreate = {
  id: 'instruments.create',
  method: 'POST',
  path: '/v2/instruments',
  declines: 'instrument',
} as const satisfies OperationRoute

export const instrumentsList = {
  id: 'instruments.list',
  method: 'GET',
  path: '/v2/instruments',
} as const satisfies OperationRoute

export const instrumentsRetrieve = {
  id: 'instruments.retrieve',
  method: 'GET',
  path: '/v2/instruments/{id}',
  params: { id: 'in_' },
} as const satisfies OperationRoute

export const instrumentsReverse = {
  id: 'instruments.reverse',
  method: 'POST',
  path: '/v2/instruments/{id}/reversal',
  params: { id: 'in_' },
  declines: 'reversal',
} as const satisfies OperationRoute

export const instrumentsInvalidate = {
  id: 'instruments.invalidate',
  method: 'DELETE',
  path: '/v2/instruments/{id}',
  params: { id: 'in_' },
  declines: 'reversal',
} as const satisfies OperationRoute

export const instrumentsRedirect = {
  id: 'instruments.redirect',
  method: 'GET',
  path: '/v2/instruments/{id}/redirect',
  params: { id: 'in_' },
} as const satisfies OperationRoute

export const instrumentsCompleteChallenge = {
  id: 'instruments.completeChallenge',
  method: 'POST',
  path: '/v2/3ds/{instrumentId}/complete',
  params: { instrumentId: 'in_' },
} as const satisfies OperationRoute

// Payments and refunds

export const paymentsCreate = {
  id: 'payments.create',
  method: 'POST',
  path: '/v2/payments',
  declines: 'payment',
} as const satisfies OperationRoute

export const paymentsRetrieve = {
  id: 'payments.retrieve',
  method: 'GET',
  path: '/v2/payments/{id}',
  params: { id: 'pa_' },
} as const satisfies OperationRoute

export const paymentsList = {
  id: 'payments.list',
  method: 'GET',
  path: '/v2/payments',
} as const satisfies OperationRoute

export const paymentsRefund = {
  id: 'payments.refund',
  method: 'POST',
  path: '/v2/payments/{id}/refund',
  params: { id: 'pa_' },
  declines: 'refund',
} as const satisfies OperationRoute

export const refundsCreate = {
  id: 'refunds.create',
  method: 'POST',
  path: '/v2/refunds',
  declines: 'refund',
} as const satisfies OperationRoute

export const refundsRetrieve = {
  id: 'refunds.retrieve',
  method: 'GET',
  path: '/v2/refunds/{id}',
  params: { id: 're_' },
} as const satisfies OperationRoute

export const refundsList = {
  id: 'refunds.list',
  method: 'GET',
  path: '/v2/refunds',
} as const satisfies OperationRoute

// Objects the API only reads

export const reversalsRetrieve = {
  id: 'reversals.retrieve',
  method: 'GET',
  path: '/v2/reversals/{id}',
  params: { id: 'rv_' },
} as const satisfies OperationRoute

export const reversalsList = {
  id: 'reversals.list',
  method: 'GET',
  path: '/v2/reversals',
} as const satisfies OperationRoute

export const disputesRetrieve = {
  id: 'disputes.retrieve',
  method: 'GET',
  path: '/v2/disputes/{id}',
  params: { id: 'dp_' },
} as const satisfies OperationRoute

export const disputesList = {
  id: 'disputes.list',
  method: 'GET',
  path: '/v2/disputes',
} as const satisfies OperationRoute

export const settlementsRetrieve = {
  id: 'settlements.retrieve',
  method: 'GET',
  path: '/v2/settlements/{id}',
  params: { id: 'st_' },
} as const satisfies OperationRoute

export const settlementsList = {
  id: 'settlements.list',
  method: 'GET',
  path: '/v2/settlements',
} as const satisfies OperationRoute

// Events

export const eventsRetrieve = {
  id: 'events.retrieve',
  method: 'GET',
  path: '/v2/events/{id}',
  params: { id: 'ev_' },
} as const satisfies OperationRoute

export const eventsList = {
  id: 'events.list',
  method: 'GET',
  path: '/v2/events',
} as const satisfies OperationRoute

export const eventsRedeliver = {
  id: 'events.redeliver',
  method: 'POST',
  path: '/v2/events/{id}/redeliver',
  params: { id: 'ev_' },
} as const satisfies OperationRoute

export const eventsDismiss = {
  id: 'events.dismiss',
  method: 'POST',
  path: '/v2/events/{id}/dismiss',
  params: { id: 'ev_' },
} as const satisfies OperationRoute

// Test helpers: what the payment provider and the customer would do

export const testHelpersSettle = {
  id: 'testHelpers.settle',
  method: 'POST',
  path: '/v2/test/settlements',
} as const satisfies OperationRoute

export const testHelpersDispute = {
  id: 'testHelpers.dispute',
  method: 'POST',
  path: '/v2/test/payments/{paymentId}/dispute',
  params: { paymentId: 'pa_' },
} as const satisfies OperationRoute

export const testHelpersSettleDispute = {
  id: 'testHelpers.settleDispute',
  method: 'POST',
  path: '/v2/test/disputes/{disputeId}/settle',
  params: { disputeId: 'dp_' },
} as const satisfies OperationRoute

export const testHelpersApproveInstrument = {
  id: 'testHelpers.approveInstrument',
  method: 'POST',
  path: '/v2/test/instruments/{instrumentId}/approve',
  params: { instrumentId: 'in_' },
} as const satisfies OperationRoute

export const testHelpersDeclineInstrument = {
  id: 'testHelpers.declineInstrument',
  method: 'POST',
  path: '/v2/test/instruments/{instrumentId}/decline',
  params: { instrumentId: 'in_' },
} as const satisfies OperationRoute

export const testHelpersPayReference = {
  id: 'testHelpers.payReference',
  method: 'POST',
  path: '/v2/test/instruments/{instrumentId}/pay',
  params: { instrumentId: 'in_' },
} as const satisfies OperationRoute

export const testHelpersExpireInstrument = {
  id: 'testHelpers.expireInstrument',
  method: 'POST',
  path: '/v2/test/instruments/{instrumentId}/expire',
  params: { instrumentId: 'in_' },
} as const satisfies OperationRoute

export const testHelpersListRequests = {
  id: 'testHelpers.listRequests',
  method: 'GET',
  path: '/v2/requests',
} as const satisfies OperationRoute

// The contract itself

export const openapiRetrieve = {
  id: 'openapi.retrieve',
  method: 'GET',
  path: '/v2/openapi.json',
} as const satisfies OperationRoute

/**
 * The table: every operation, each route with what the sandbox and the contract need besides,
 * in the order the sandbox registers them (a fixed path before a parameter in the same place:
 * `/v2/charges/types` before `/v2/charges/{id}`) and the documents list them. Each entry is
 * marked pure, so a bundle that only calls a few routes (the browser client) drops the rest.
 */
export const operationTable = [
  /* @__PURE__ */ operation(chargesCreate, {
    status: 201,
    keys: 'public',
    body: 'CreateChargeRequest',
    answer: 'Charge',
    publicAnswer: 'PublicCharge',
    publicKeyForbids: 'confirmed',
  }),
  /* @__PURE__ */ operation(chargesTypes, {
    status: 200,
    keys: 'public',
    answer: 'ChargeTypeList',
  }),
  /* @__PURE__ */ operation(chargesRetrieve, {
    status: 200,
    keys: 'public',
    answer: 'Charge',
    publicAnswer: 'PublicCharge',
  }),
  /* @__PURE__ */ operation(chargesConfirm, {
    status: 201,
    keys: 'private',
    answer: 'Charge',
    refusesFailedCharge: true,
  }),
  /* @__PURE__ */ operation(chargesList, {
    status: 200,
    keys: 'private',
    query: 'ChargeListQuery',
    answer: { list: 'Charge' },
  }),
  /* @__PURE__ */ operation(instrumentsCreate, {
    status: 201,
    keys: 'public',
    body: 'CreateInstrumentRequest',
    answer: 'Instrument',
    conflicts: ['05.03.0000', duplicate],
    refusesFailedCharge: true,
  }),
  /* @__PURE__ */ operation(instrumentsList, {
    status: 200,
    keys: 'private',
    query: 'InstrumentListQuery',
    answer: { list: 'Instrument' },
  }),
  /* @__PURE__ */ operation(instrumentsRetrieve, {
    status: 200,
    keys: 'public',
    answer: 'Instrument',
  }),
  /* @__PURE__ */ operation(instrumentsReverse, {
    status: 201,
    keys: 'private',
    body: 'CreateReversalRequest',
    answer: 'Reversal',
    conflicts: [notAuthorized, statusForbids, duplicate, amountMismatch],
  }),
  /* @__PURE__ */ operation(instrumentsInvalidate, {
    status: 204,
    keys: 'private',
    answer: 'nothing',
  }),
  /* @__PURE__ */ operation(instrumentsRedirect, {
    status: 200,
    keys: 'none',
    query: 'ChallengePageQuery',
    answer: 'page',
  }),
  /* @__PURE__ */ operation(instrumentsCompleteChallenge, {
    status: 200,
    keys: 'none',
    body: 'ChallengeForm',
    answer: 'page',
    sandboxOnly: true,
  }),
  /* @__PURE__ */ operation(paymentsCreate, {
    status: 201,
    keys: 'private',
    body: 'CreatePaymentRequest',
    answer: 'Payment',
    conflicts: [notAuthorized, statusForbids, amountMismatch],
  }),
  /* @__PURE__ */ operation(paymentsRetrieve, {
    status: 200,
    keys: 'private',
    answer: 'Payment',
  }),
  /* @__PURE__ */ operation(paymentsList, {
    status: 200,
    keys: 'private',
    query: 'PaymentListQuery',
    answer: { list: 'Payment' },
  }),
  /* @__PURE__ */ operation(paymentsRefund, {
    status: 201,
    keys: 'private',
    body: 'CreateRefundRequest',
    answer: 'Refund',
    conflicts: [statusForbids, amountMismatch, '05.04.0000'],
  }),
  /* @__PURE__ */ operation(refundsCreate, {
    status: 201,
    keys: 'private',
    body: 'CreateRefundOfPaymentRequest',
    answer: 'Refund',
    conflicts: [statusForbids, amountMismatch, '05.04.0000'],
  }),
  /* @__PURE__ */ operation(refundsRetrieve, {
    status: 200,
    keys: 'private',
    answer: 'Refund',
  }),
  /* @__PURE__ */ operation(refundsList, {
    status: 200,
    keys: 'private',
    query: 'RefundListQuery',
    answer: { list: 'Refund' },
  }),
  /* @__PURE__ */ operation(reversalsRetrieve, {
    status: 200,
    keys: 'private',
    answer: 'Reversal',
  }),
  /* @__PURE__ */ operation(reversalsList, {
    status: 200,
    keys: 'private',
    query: 'ReversalListQuery',
    answer: { list: 'Reversal' },
  }),
  /* @__PURE__ */ operation(disputesRetrieve, {
    status: 200,
    keys: 'private',
    answer: 'Dispute',
  }),
  /* @__PURE__ */ operation(disputesList, {
    status: 200,
    keys: 'private',
    query: 'DisputeListQuery',
    answer: { list: 'Dispute' },
  }),
  /* @__PURE__ */ operation(settlementsRetrieve, {
    status: 200,
    keys: 'private',
    answer: 'Settlement',
  }),
  /* @__PURE__ */ operation(settlementsList, {
    status: 200,
    keys: 'private',
    query: 'ListQuery',
    answer: { list: 'Settlement' },
  }),
  /* @__PURE__ */ operation(eventsRetrieve, {
    status: 200,
    keys: 'private',
    answer: 'Event',
  }),
  /* @__PURE__ */ operation(eventsList, {
    status: 200,
    keys: 'private',
    query: 'EventListQuery',
    answer: { list: 'Event' },
  }),
  /* @__PURE__ */ operation(eventsRedeliver, {
    status: 200,
    keys: 'private',
    answer: 'Event',
  }),
  /* @__PURE__ */ operation(eventsDismiss, {
    status: 200,
    keys: 'private',
    answer: 'Event',
  }),
  /* @__PURE__ */ operation(testHelpersSettle, {
    status: 201,
    keys: 'private',
    answer: 'Settlement',
    sandboxOnly: true,
  }),
  /* @__PURE__ */ operation(testHelpersDispute, {
    status: 201,
    keys: 'private',
    body: 'CreateDisputeRequest',
    answer: 'Dispute',
    conflicts: [statusForbids, amountMismatch],
    sandboxOnly: true,
  }),
  /* @__PURE__ */ operation(testHelpersSettleDispute, {
    status: 200,
    keys: 'private',
    body: 'SettleDisputeRequest',
    answer: 'Dispute',
    conflicts: [statusForbids],
    sandboxOnly: true,
  }),
  /* @__PURE__ */ operation(testHelpersApproveInstrument, {
    status: 200,
    keys: 'private',
    answer: 'Instrument',
    conflicts: [statusForbids],
    sandboxOnly: true,
  }),
  /* @__PURE__ */ operation(testHelpersDeclineInstrument, {
    status: 200,
    keys: 'private',
    answer: 'Instrument',
    conflicts: [statusForbids],
    sandboxOnly: true,
  }),
  /* @__PURE__ */ operation(testHelpersPayReference, {
    status: 200,
    keys: 'private',
    answer: 'Instrument',
    conflicts: [statusForbids],
    sandboxOnly: true,
  }),
  /* @__PURE__ */ operation(testHelpersExpireInstrument, {
    status: 200,
    keys: 'private',
    answer: 'Instrument',
    conflicts: [statusForbids],
    sandboxOnly: true,
  }),
  /* @__PURE__ */ operation(testHelpersListRequests, {
    status: 200,
    keys: 'private',
    query: 'ListQuery',
    answer: { list: 'RecordedRequest' },
    sandboxOnly: true,
  }),
  /* @__PURE__ */ operation(openapiRetrieve, {
    status: 200,
    keys: 'none',
    answer: 'document',
    sandboxOnly: true,
  }),
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
  OperationContract,
  OperationRoute,
  SchemaName,
} from './operation'
export { apiRoot, expandPath, pathParameters, pathPattern, takesIdempotencyKey } from './operation'
