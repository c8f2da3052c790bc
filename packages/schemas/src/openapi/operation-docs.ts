import type { OperationId } from '../operations'

/** What people read about each operation: its summary, and what the summary leaves out. */
export const operationDocs: {
  readonly [Id in OperationId]: { readonly summary: string; readonly description?: string }
} = {
  'charges.create': {
    summary: 'Create a charge',
    description:
      'Starts a transaction. With the private key the charge is confirmed at once (`charge.created`, then `charge.confirmed`) unless `confirmed` is false; with the public key it is always created unconfirmed, for the merchant to confirm. A charge amount coded with `.10` fails the charge step.',
  },
  'charges.types': {
    summary: 'List the charge types on offer',
    description:
      "The account's charge types, each with the JSON Schema of its instrument request, to draw a payment form from.",
  },
  'charges.retrieve': {
    summary: 'Retrieve a charge',
  },
  'charges.confirm': {
    summary: 'Confirm a charge',
    description:
      'Runs the charge step of a charge created unconfirmed (`charge.confirmed`), so an instrument can be created from it. A confirmed charge answers unchanged.',
  },
  'charges.list': {
    summary: 'List charges',
  },
  'instruments.create': {
    summary: 'Create an instrument',
    description:
      "What the customer gives for a confirmed charge, by its charge type: a card, an MB WAY phone number, or only the charge. A charge takes at most one live instrument. Captured on creation, the payment's decline answers 402 naming the payment.",
  },
  'instruments.list': {
    summary: 'List instruments',
  },
  'instruments.retrieve': {
    summary: 'Retrieve an instrument',
  },
  'instruments.reverse': {
    summary: 'Reverse an instrument',
    description:
      'Voids an authorized instrument with nothing captured, for its full amount (`reversal.*`); the instrument becomes invalid.',
  },
  'instruments.invalidate': {
    summary: 'Invalidate an instrument',
    description:
      'No payment can be created from it any more (`instrument.invalid`). An authorized instrument with nothing captured is reversed first, releasing the funds. Invalidating twice is as good as once.',
  },
  'instruments.redirect': {
    summary: "The customer's 3-D Secure or approval page",
    description:
      "Where `instrument.redirect.url` sends the customer's browser, with the account's public key in the query. While the instrument waits it shows the challenge; once decided it sends the customer back to the charge's `redirect_url` with `?instrument={id}` (303).",
  },
  'instruments.completeChallenge': {
    summary: "The challenge page's form",
    description:
      "The form of the challenge page posts the customer's choice with the challenge's token; the answer sends the customer back to the shop (303) or shows the result.",
  },
  'payments.create': {
    summary: 'Capture a payment',
    description:
      'Captures (part of) an authorized instrument. A one-time instrument takes at most what it authorized; a recurring one is a token for any number of payments.',
  },
  'payments.retrieve': {
    summary: 'Retrieve a payment',
  },
  'payments.list': {
    summary: 'List payments',
  },
  'payments.refund': {
    summary: 'Refund a payment',
    description:
      'Refunds (part of) a successful payment. Refunds and open or lost disputes together never exceed what it captured.',
  },
  'refunds.create': {
    summary: 'Refund the payment named in the body',
    description: 'The same refund as `payments.refund`, with the payment named in the body.',
  },
  'refunds.retrieve': {
    summary: 'Retrieve a refund',
  },
  'refunds.list': {
    summary: 'List refunds',
  },
  'reversals.retrieve': {
    summary: 'Retrieve a reversal',
  },
  'reversals.list': {
    summary: 'List reversals',
  },
  'disputes.retrieve': {
    summary: 'Retrieve a dispute',
  },
  'disputes.list': {
    summary: 'List disputes',
  },
  'settlements.retrieve': {
    summary: 'Retrieve a settlement',
  },
  'settlements.list': {
    summary: 'List settlements',
  },
  'events.retrieve': {
    summary: 'Retrieve an event',
    description:
      'The full form: the objects of the transaction as they stood when the event happened. A receiver fetches it to verify a delivery.',
  },
  'events.list': {
    summary: 'Search events',
  },
  'events.stream': {
    summary: "Follow the account's events as they happen",
    description:
      "A Server-Sent Events stream of the account's new events in the full form, in the order they were recorded, each sent as soon as it is stored: what `chargekit listen` uses against a sandbox instead of searching every second. `type` narrows it; `created_gte` starts it at a time in the past. After a dropped connection, send `Last-Event-ID` with the last `id` received: the stream goes on with the next event, none lost and none twice. An account may hold a few streams at once; more answer 429.",
  },
  'events.redeliver': {
    summary: 'Deliver an event again',
    description: 'One more delivery attempt now, outside the schedule, appended to `retries_log`.',
  },
  'events.dismiss': {
    summary: 'Dismiss an event',
    description:
      'Sets `dismissed_at`, a mark for your own bookkeeping; dismissing twice keeps the first time.',
  },
  'testHelpers.settle': {
    summary: 'Settle everything settleable',
    description:
      'Settles every successful, unsettled payment and refund of the account (`payment.settled`, `refund.settled`, `instrument.settled`).',
  },
  'testHelpers.dispute': {
    summary: 'The customer disputes a payment',
  },
  'testHelpers.settleDispute': {
    summary: 'The processor decides a dispute',
  },
  'testHelpers.approveInstrument': {
    summary: 'The customer approves a pending instrument',
    description:
      'On the approval page (PayPal, 3-D Secure) or in the app (MB WAY). Answers the instrument as it is now: authorized, or invalid when the capture on creation failed it.',
  },
  'testHelpers.declineInstrument': {
    summary: 'The customer refuses a pending instrument',
    description: "The instrument becomes invalid with the method's code.",
  },
  'testHelpers.payReference': {
    summary: "The customer pays a pending instrument's payment reference",
    description: 'Multibanco, Payshop: at an ATM, in home banking or in a shop.',
  },
  'testHelpers.expireInstrument': {
    summary: "A pending instrument's deadline passes now",
    description: 'The instrument becomes invalid with 03.00.0002 Instrument Expired.',
  },
  'testHelpers.listRequests': {
    summary: "List the account's recent requests",
    description:
      'Newest first, each with the integration warnings the sandbox found in it. Never headers or bodies.',
  },
  'testHelpers.signingSecret': {
    summary: "The account's delivery signing secret",
    description:
      'The Standard Webhooks secret every delivery to an `events_url` is signed with (`webhook-id`, `webhook-timestamp`, `webhook-signature` headers): give it to your receiver to check them. `null` when the sandbox delivers unsigned, as the production service does.',
  },
  'openapi.retrieve': {
    summary: 'This OpenAPI document',
    description: 'Also served at `/openapi.json`; the reference rendered from it is at `/docs`.',
  },
}
