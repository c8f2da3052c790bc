import * as z from 'zod/v4'

/** The query of the customer's 3-D Secure or approval page: the account's public key. */
export const challengePageQuerySchema = z.object({
  public_key: z.string().min(1).meta({ description: "The account's public key (`pk_…`)." }),
})

/** What the challenge page's form posts: the customer's choice and the challenge's token. */
export const challengeFormSchema = z.object({
  token: z.string().min(1).meta({ description: "The challenge's token, from the page." }),
  outcome: z.enum(['authorize', 'fail']),
})
