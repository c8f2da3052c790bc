import { readOptions } from '@chargekit/schemas'
import * as z from 'zod'
import { SandboxError } from './errors'

const wholeAtLeastOne = z.int({ error: 'must be a whole number >= 1' }).min(1, {
  error: 'must be a whole number >= 1',
})
const positiveMs = z
  .number({ error: 'must be a number of ms > 0' })
  .positive({ error: 'must be a number of ms > 0' })
  .refine(Number.isFinite, { error: 'must be a number of ms > 0' })

const rateLimitSchema = z.union(
  [
    z.literal(false),
    z.strictObject({
      requestsPerSecond: z
        .number({ error: 'must be a number > 0' })
        .positive({ error: 'must be a number > 0' })
        .refine(Number.isFinite, { error: 'must be a number > 0' }),
      burst: z
        .number({ error: 'must be a number >= 1' })
        .min(1, { error: 'must be a number >= 1' })
        .refine(Number.isFinite, { error: 'must be a number >= 1' })
        .optional(),
    }),
  ],
  { error: 'must be false or { requestsPerSecond, burst? }' },
)

/** An origin as browsers send it: scheme://host[:port], nothing after. */
const originSchema = z.string().refine(
  (text) => {
    try {
      return new URL(text).origin === text
    } catch {
      return false
    }
  },
  {
    error:
      'is not an origin; expected scheme://host[:port] with no path, such as https://shop.example',
  },
)

/** http(s)://host[:port] with nothing else: credentials, a path, a query would not survive in links. */
function isHttpOrigin(text: string): boolean {
  const url = URL.canParse(text) ? new URL(text) : undefined
  return (
    url !== undefined &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.username === '' &&
    url.password === '' &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === ''
  )
}

const functions = (...names: string[]) =>
  z.custom<object>(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function'),
    { error: `must be an object with ${names.join(', ')} methods` },
  )

/**
 * The shape of `startSandbox`'s options, checked once before anything starts. What only the
 * sandbox can judge (an account listed twice, a processor whose channel collides with another's)
 * is checked where it is built, with the same kind of message.
 */
export const startSandboxOptionsSchema = z.strictObject({
  port: z.int({ error: 'must be a TCP port from 0 to 65535' }).min(0).max(65_535).optional(),
  host: z.string({ error: 'must be an interface address such as 127.0.0.1' }).min(1).optional(),
  accounts: z
    .array(
      z.looseObject(
        { rateLimit: rateLimitSchema.optional() },
        { error: 'must be an account: { id, privateKey, publicKey? }' },
      ),
      {
        error: 'must be a non-empty array of { id, privateKey, publicKey? }',
      },
    )
    .min(1)
    .optional(),
  processors: z.array(z.unknown(), { error: 'must be an array of processors' }).optional(),
  timeScale: z
    .number({ error: 'must be a number >= 0 (1 = real time, 0.001 = 1000x faster)' })
    .min(0, { error: 'must be a number >= 0 (1 = real time, 0.001 = 1000x faster)' })
    .refine(Number.isFinite, {
      error: 'must be a number >= 0 (1 = real time, 0.001 = 1000x faster)',
    })
    .optional(),
  clock: functions('now', 'wakeAt').optional(),
  signingSecret: z.string({ error: 'must be a secret such as whsec_<base64>' }).min(1).optional(),
  deliveryTimeoutMs: positiveMs.optional(),
  logger: functions('info', 'warn', 'error').optional(),
  rateLimit: rateLimitSchema.optional(),
  requestTimeoutMs: positiveMs.optional(),
  publicUrl: z
    .string({ error: 'must be an http(s) origin such as https://sandbox.example.com' })
    .refine(isHttpOrigin, {
      error:
        'must be an http(s) origin (no credentials, path or query) such as https://sandbox.example.com',
    })
    .optional(),
  credentialThrottle: z
    .strictObject({
      maxFailuresPerAddressAndAccount: wholeAtLeastOne.optional(),
      maxFailuresPerAddress: wholeAtLeastOne.optional(),
      windowMs: wholeAtLeastOne.optional(),
    })
    .optional(),
  connections: z
    .strictObject({
      headersTimeoutMs: wholeAtLeastOne.optional(),
      receiveTimeoutMs: wholeAtLeastOne.optional(),
      maxConnections: wholeAtLeastOne.optional(),
      maxConnectionsPerAddress: wholeAtLeastOne.optional(),
    })
    .optional(),
  retainCharges: z
    .int({ error: 'must be a whole number of charges >= 1, such as 5000' })
    .min(1, { error: 'must be a whole number of charges >= 1, such as 5000' })
    .optional(),
  store: functions('getObject', 'putObject', 'addEvent').optional(),
  data: z
    .string({ error: 'must be the path of a folder for the embedded database' })
    .refine((path) => path.trim() !== '', {
      error: 'must be the path of a folder for the embedded database',
    })
    .optional(),
  database: z
    .string({
      error: 'must be a PostgreSQL URL, such as postgres://user:password@localhost:5432/sandbox',
    })
    .regex(/^postgres(ql)?:\/\//, {
      error: 'must be a PostgreSQL URL, such as postgres://user:password@localhost:5432/sandbox',
    })
    .optional(),
  startupTimeoutMs: z
    .number({ error: 'must be a number of ms >= 0' })
    .min(0, { error: 'must be a number of ms >= 0' })
    .refine(Number.isFinite, { error: 'must be a number of ms >= 0' })
    .optional(),
  signal: z
    .custom<AbortSignal>((value) => value instanceof AbortSignal, {
      error: 'must be an AbortSignal',
    })
    .optional(),
  deliverEvents: z.boolean({ error: 'must be true or false' }).optional(),
  allowHttpEventsUrl: z.boolean({ error: 'must be true or false' }).optional(),
  corsOrigins: z
    .array(originSchema, { error: 'must be an array of origins such as ["https://shop.example"]' })
    .optional(),
  maxDeclinedInstruments: wholeAtLeastOne.optional(),
})

const secretOptions: ReadonlySet<string> = new Set(['database', 'signingSecret', 'accounts'])

/**
 * `options` checked against `schema`: a SandboxError naming the first bad option (its dotted
 * path), what was expected and what was given, or an unknown option with the likeliest intended
 * one.
 */
export function checkOptions<Schema extends z.ZodType>(
  where: string,
  schema: Schema,
  options: unknown,
): z.output<Schema> {
  // A database URL or a secret may hold a password: never repeated in an error.
  const read = readOptions(schema, options, { secret: secretOptions })
  if (read.success) return read.data
  const { problem } = read
  if (problem.kind === 'unknown') {
    throw new SandboxError(
      `${where}: unknown option ${[...problem.path, problem.key].join('.')}${problem.intended === undefined ? '' : ` (did you mean ${problem.intended}?)`}; the options are ${problem.known.join(', ')}`,
    )
  }
  const path = problem.path.join('.')
  if (problem.given === undefined) throw new SandboxError(`${where}: ${path} ${problem.message}`)
  throw new SandboxError(`${where}: ${path} ${problem.message}; got ${problem.given}`)
}
