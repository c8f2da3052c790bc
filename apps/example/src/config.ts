import * as z from 'zod'

const unsetIfEmpty = (value: unknown) => (value === '' ? undefined : value)
const port = (fallback: number) =>
  z.preprocess(
    unsetIfEmpty,
    z.coerce
      .number({ error: 'Expected a port number' })
      .int({ error: 'Expected a whole port number' })
      .min(0, { error: 'Expected a port from 0 to 65535' })
      .max(65535, { error: 'Expected a port from 0 to 65535' })
      .default(fallback),
  )
const optionalText = z.preprocess(unsetIfEmpty, z.string().optional())
const optionalUrl = z.preprocess(
  unsetIfEmpty,
  z.url({ error: 'Expected an absolute http(s) URL', protocol: /^https?$/ }).optional(),
)

/** Environment variables of the shop and the demo, with their defaults. */
const environmentSchema = z.object({
  SHOP_HOST: z.preprocess(unsetIfEmpty, z.string().default('127.0.0.1')),
  SHOP_PORT: port(3000),
  SHOP_PUBLIC_URL: optionalUrl,
  SHOP_EVENTS_URL: optionalUrl,
  SANDBOX_PORT: port(4010),
  DATABASE_URL: optionalText,
  PGLITE_DATA_DIR: optionalText,
  CHARGEKIT_BASE_URL: optionalUrl,
  CHARGEKIT_BROWSER_BASE_URL: optionalUrl,
  CHARGEKIT_ACCOUNT_ID: optionalText,
  CHARGEKIT_PRIVATE_KEY: optionalText,
  CHARGEKIT_PUBLIC_KEY: optionalText,
  CHARGEKIT_SIGNING_SECRET: optionalText,
})

export type ShopEnvironment = z.output<typeof environmentSchema>

/** Reads the environment; a bad value stops start-up with the variable's name and what to set. */
export function readEnvironment(env: Record<string, string | undefined>): ShopEnvironment {
  const result = environmentSchema.safeParse(env)
  if (result.success) return result.data
  const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
  throw new Error(`Invalid environment — ${problems.join('; ')}.`)
}
