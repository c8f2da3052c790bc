import * as z from 'zod/v4'

/**
 * The account's delivery signing secret (`testHelpers.signingSecret`, a sandbox endpoint): the
 * Standard Webhooks secret every delivery to an `events_url` is signed with, to configure a
 * receiver with. `null` when the sandbox delivers unsigned, as the production service does.
 */
export const signingSecretSchema = z.looseObject({
  signing_secret: z
    .string()
    .nullable()
    .describe('`whsec_` and the base64 key, or any other text used as the raw key; null: unsigned'),
})

export type SigningSecret = z.infer<typeof signingSecretSchema>
