import * as z from 'zod/v4'
import { describedField } from './field-descriptions'

/** The query of the customer's 3-D Secure or approval page: the account's public key. */
export const challengePageQuerySchema = z.object({
  public_key: describedField("The account's public key (`pk_…`)", z.string().min(1)),
})

/** What the challenge page's form posts: the customer's choice and the challenge's token. */
export const challengeFormSchema = z.object({
  token: describedField("The challenge's token, from the page", z.string().min(1)),
  outcome: describedField(
    "The customer's answer to the challenge: authorize or fail",
    z.enum(['authorize', 'fail']),
  ),
})
