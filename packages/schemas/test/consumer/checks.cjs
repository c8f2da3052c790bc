'use strict'

/**
 * What an app does with the packed packages, run once from an ESM entry and once from a CommonJS
 * entry: the packages come in as each format loaded them. Returns plain JSON for the test to
 * compare.
 */
async function runChecks({ schemas, client: clientPackage }, fixtures) {
  const { chargeSchema, createChargeRequestSchema, formatZodIssues, isEventOfType, parseEvent } =
    schemas
  const { SchemaValidationError, toMinorUnits } = schemas

  const event = parseEvent(fixtures.event)
  const charge = chargeSchema.parse({ ...fixtures.charge, settlement_batch: 'sb_1' })

  let eventError
  try {
    parseEvent({ ...fixtures.event, created_at: 'yesterday' })
  } catch (error) {
    eventError = error
  }

  const request = createChargeRequestSchema.safeParse({
    charge_type: 'card_onetime',
    amount: 10.005,
    currency: 'USD',
    events_url: 'http://shop.test',
    channels: [7],
  })

  // The client validates answers with the schemas package's schemas, compiled where zod can.
  const answers = {
    [`/v2/events/${fixtures.event.id}`]: fixtures.event,
    '/v2/events/ev_without_refund': { ...fixtures.event, id: 'ev_without_refund', refund: null },
    [`/v2/charges/${fixtures.charge.id}`]: { ...fixtures.charge, settlement_batch: 'sb_1' },
  }
  const client = clientPackage.createClient({
    accountId: 'acct_consumer',
    privateKey: 'sk_consumer',
    baseUrl: 'https://api.chargekit.test',
    maxRetries: 0,
    fetch: async (url) =>
      Response.json(answers[new URL(String(url)).pathname] ?? { message: 'Not found' }),
  })
  const fetchedEvent = await client.events.retrieve(fixtures.event.id)
  const fetchedCharge = await client.charges.retrieve(fixtures.charge.id)
  let responseError
  try {
    await client.events.retrieve('ev_without_refund')
  } catch (error) {
    responseError = error
  }

  return {
    event: {
      type: event.type,
      refund: isEventOfType(event, 'refund.success') ? event.refund.id : null,
    },
    unknownChargeField: charge.settlement_batch,
    minorUnits: String(toMinorUnits(charge.amount, charge.currency)),
    eventError: {
      isSchemaValidationError: eventError instanceof SchemaValidationError,
      parameters: eventError?.parameters,
    },
    requestProblems: request.success ? null : formatZodIssues(request.error),
    client: {
      event: fetchedEvent.id,
      unknownChargeField: fetchedCharge.settlement_batch,
      error: { name: responseError?.name, issues: responseError?.issues },
    },
  }
}

module.exports = { runChecks }
