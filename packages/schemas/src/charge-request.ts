import * as z from 'zod/v4'
import { amountSchema } from './amount'
import { withRequestAmountChecks } from './amount-precision'
import { instrumentParamsSchema } from './charge'
import { currencySchema } from './currency'
import { createEventsUrlSchema, type EventsUrlOptions } from './events-url'
import { chargeRequestMetadataSchema, requestMetadataSchema } from './metadata'
import { boundedText, requestTextLimits } from './request-text'

/** A URL to send the customer back to, or "" for none (the service allows an empty string). */
export const redirectUrlSchema = z.union(
  [z.literal(''), z.url({ protocol: /^https?$/ }).max(requestTextLimits.url)],
  {
    error: `Expected an http(s) URL of at most ${requestTextLimits.url} characters, or an empty string`,
  },
)

const instrumentParamKeys = Object.keys(instrumentParamsSchema.shape).join(', ')

/**
 * The charge's `instrument_params` as sent: the response fields, strict, because a misspelt
 * option (`captured_on_creaton`) silently dropped would change how the payment is captured.
 */
const instrumentParamsRequestSchema = z.strictObject(instrumentParamsSchema.shape, {
  error: (issue) =>
    issue.code === 'unrecognized_keys'
      ? `Unknown option${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}: expected only ${instrumentParamKeys}`
      : undefined,
})

function chargeRequestSchema<Metadata extends z.ZodType>(
  options: EventsUrlOptions,
  metadata: Metadata,
) {
  return withRequestAmountChecks(
    z.object({
      charge_type: z.string().min(1, { error: 'Expected a charge type such as "card_onetime"' }),
      amount: amountSchema,
      currency: currencySchema,
      events_url: createEventsUrlSchema(options),
      channels: z
        .array(
          z
            .string()
            .min(1, { error: 'Expected a channel label such as "card_onetime_no_processor"' }),
        )
        .optional(),
      metadata: metadata.optional(),
      redirect_url: redirectUrlSchema.optional(),
      instrument_params: instrumentParamsRequestSchema.optional(),
      /** What the merchant sells, for its own records; stored and returned on the charge. */
      description: boundedText(requestTextLimits.description).optional(),
      /**
       * `false` creates the charge unconfirmed: it takes no instrument until
       * `charges.confirm`. Absent or `true`: confirmed at once.
       */
      confirmed: z.boolean().optional(),
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

export type CreateChargeRequest = z.infer<typeof createChargeRequestSchema>
