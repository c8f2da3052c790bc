import * as z from 'zod/v4'
import { amountSchema } from './amount'
import { withRequestAmountChecks } from './amount-precision'
import { instrumentParamsSchema } from './charge'
import { currencySchema } from './currency'
import { createEventsUrlSchema, type EventsUrlOptions } from './events-url'
import { describedField } from './field-descriptions'
import {
  type ChargeMetadataParam,
  chargeRequestMetadataSchema,
  requestMetadataSchema,
} from './metadata'
import { boundedText, requestTextLimits } from './request-text'

const redirectUrlExpected = `Expected an http(s) URL of at most ${requestTextLimits.url} characters, or an empty string`

/** A URL to send the customer back to, or "" for none (the service allows an empty string). */
export const redirectUrlSchema = z.union(
  [
    z.literal(''),
    // Its own message too: zod reports a URL problem of this option alone ("Invalid URL").
    z
      .url({ protocol: /^https?$/, error: redirectUrlExpected })
      .max(requestTextLimits.url, { error: redirectUrlExpected }),
  ],
  { error: redirectUrlExpected },
)

const instrumentParamKeys = Object.keys(instrumentParamsSchema.shape).join(', ')

/**
 * The charge's `instrument_params` as sent: the options of {@link instrumentParamsSchema},
 * strict, because a misspelt option (`captured_on_creaton`) silently dropped would change how
 * the payment is captured.
 */
const instrumentParamsRequestSchema = z.strictObject(
  {
    captured_on_creation: describedField(
      'true or false: whether the payment is created as soon as the instrument is authorized (true) or waits for payments.create (false); by default true for card_onetime, false for card_recurring',
      z.boolean(),
    ).optional(),
    enable3ds: describedField(
      'true or false: whether the customer goes through 3-D Secure',
      z.boolean(),
    ).optional(),
    recurring: describedField(
      'true or false: whether several payments may be created from the instrument',
      z.boolean(),
    ).optional(),
  } satisfies Record<keyof typeof instrumentParamsSchema.shape, z.ZodType>,
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown option${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}: expected only ${instrumentParamKeys}`
        : undefined,
  },
)

/** A channel label, as `channels` lists them. */
const channelLabel =
  'A channel label: the charge type, an underscore and the processor channel, such as card_onetime_no_processor'

function chargeRequestSchema<Metadata extends z.ZodType>(
  options: EventsUrlOptions,
  metadata: Metadata,
) {
  return withRequestAmountChecks(
    z.object({
      charge_type: describedField(
        "The payment method the customer pays with, such as card_onetime or mbway (charges.types lists the account's)",
        z.string().min(1),
      ),
      amount: describedField(
        "The amount to charge: a number in the currency's major units, greater than 0, such as 20.5 for 20.50 EUR",
        amountSchema,
      ),
      currency: describedField(
        'The currency to charge in, an ISO 4217 code such as EUR or USD',
        currencySchema,
      ),
      events_url: describedField(
        "The address that receives the charge's events, an https:// URL",
        createEventsUrlSchema(options),
      ),
      channels: describedField(
        'The channels that may process the charge, by label',
        z.array(describedField(channelLabel, z.string().min(1))),
      ).optional(),
      // Described around the schema, which the sandbox recognises by identity to keep text
      // metadata; its own messages already say what it takes.
      metadata: metadata.optional().meta({
        description:
          'The merchant\'s own data that identifies the transaction, such as {"order_id": "1001"}: an object of flat values (string, number, boolean or null), returned on the charge and in every event',
      }),
      redirect_url: describedField(
        'The address the customer returns to after a redirect (3-D Secure, PayPal): an http(s) URL, or an empty string for none',
        redirectUrlSchema,
      ).optional(),
      instrument_params: describedField(
        `Options of the instrument created from the charge: ${instrumentParamKeys}`,
        instrumentParamsRequestSchema,
      ).optional(),
      description: describedField(
        `A description of what the merchant sells, for its own records: at most ${requestTextLimits.description} characters, stored and returned on the charge`,
        boundedText(requestTextLimits.description),
      ).optional(),
      confirmed: describedField(
        'true or false: false creates the charge unconfirmed, taking no instrument until charges.confirm; absent or true confirms it at once',
        z.boolean(),
      ).optional(),
    }),
  )
}

/**
 * Builds the `charges.create` body schema as the service reads it, for an emulator of the
 * service: `metadata` may also be a string (see {@link chargeRequestMetadataSchema}). The sandbox
 * passes `allowLoopbackHttp: true` so a merchant server on the same machine can receive events
 * over plain http.
 */
export function createChargeRequestSchemaFor(options: EventsUrlOptions) {
  return chargeRequestSchema(options, chargeRequestMetadataSchema)
}

/**
 * `charges.create` body as a client sends it: `events_url` https only (deliveries go over the
 * public internet), `metadata` an object, which the event search can match by key.
 */
export const createChargeRequestSchema = chargeRequestSchema(
  { allowLoopbackHttp: false },
  requestMetadataSchema,
)

/** `charges.create` body; `metadata` of the type the app registered, if it did (see `Register`). */
export type CreateChargeRequest = Omit<z.infer<typeof createChargeRequestSchema>, 'metadata'> &
  ChargeMetadataParam
