// The clients' options, declared once: each option's type, range, default, and the words its
// error message uses. scripts/generate-option-rules.ts compiles them into src/option-rules.ts,
// which the clients check with and which needs no zod (test/option-rules.test.ts fails while it
// is stale). The types users read, with their documentation, are in src/client-options.ts and
// src/browser-client.ts; the compiler insists the keys here are exactly theirs.
import * as z from 'zod/v4'
import type { BrowserClientOptions, BrowserRequestOptions } from '../src/browser-client'
import type { ClientOptions, RequestOptions } from '../src/client-options'
import { type BackoffOptions, defaultBackoff } from '../src/retry-policy'

/** The largest delay `setTimeout` supports; a larger one would fire at once instead of never. */
const maxTimerMs = 2_147_483_647

/** What the generator reads from an option: how its message names what is expected. */
export type OptionMeta = {
  /** A function option: the function it must be (`a function that receives one log entry`). */
  expected?: string
  /** A whole number of this unit (`milliseconds`). */
  unit?: string
  /** A credential or address also read from this environment variable when not given. */
  variable?: string
  /** The name of the rule's constant, when tables share it under several option names. */
  rule?: string
}

const meta = (value: OptionMeta) => value

const milliseconds = (min: number, fallback: number) =>
  z
    .int()
    .min(min)
    .max(maxTimerMs)
    .default(fallback)
    .meta(meta({ unit: 'milliseconds' }))
const timeoutMs = milliseconds(1, 30_000)
const deadlineMs = milliseconds(1, 120_000)
const maxRetries = z.int().min(0).max(20).default(2)
const validate = z.boolean().default(true)
// Read by the call itself, with messages of their own: a signal by its shape, a key by the
// service's rule.
const readByTheCall = z
  .custom<unknown>()
  .optional()
  .meta(meta({ rule: 'readByTheCall' }))
const fetch = z
  .custom<(...args: never[]) => unknown>()
  .optional()
  .meta(meta({ expected: 'a function with the signature of the global fetch' }))

/** An HTTP Basic user name: no spaces, no ":" (it ends the user), no control characters. */
const basicUser = z.string().regex(/^[^\s:\p{Cc}]+$/u)

type Keys<T> = { [Key in keyof Required<T>]: z.ZodType }

export const backoffOptionsSchema = z.strictObject({
  initialDelayMs: milliseconds(0, defaultBackoff.initialDelayMs),
  maxDelayMs: milliseconds(0, defaultBackoff.maxDelayMs),
  maxRetryAfterMs: milliseconds(0, defaultBackoff.maxRetryAfterMs),
} satisfies Keys<BackoffOptions>)

export const clientOptionsSchema = z.strictObject({
  accountId: basicUser.meta(
    meta({
      variable: 'CHARGEKIT_ACCOUNT_ID',
      expected:
        'a non-empty string without spaces, ":" or control characters (it is the HTTP Basic user)',
    }),
  ),
  // At least 8 characters: messages are redacted by replacing the key wherever it appears, and a
  // key of a few characters would also match ordinary words; no real key is that short.
  privateKey: z
    .string()
    .regex(/^[^\s\p{Cc}]+$/u)
    .min(8)
    .meta(
      meta({
        variable: 'CHARGEKIT_PRIVATE_KEY',
        expected: 'a non-empty string without spaces or control characters',
      }),
    ),
  baseUrl: z.url().meta(meta({ variable: 'CHARGEKIT_BASE_URL' })),
  fetch,
  transport: z
    .custom<(...args: never[]) => unknown>()
    .optional()
    .meta(
      meta({
        expected: 'a transport function, such as nodeTransport() from @chargekit/client/node',
      }),
    ),
  timeoutMs,
  deadlineMs,
  maxRetries,
  backoff: backoffOptionsSchema.optional(),
  logger: z
    .custom<(...args: never[]) => unknown>()
    .optional()
    .meta(meta({ expected: 'a function that receives one log entry' })),
  validate,
  dangerouslyAllowBrowser: z.boolean().default(false),
} satisfies Keys<ClientOptions>)

/** What each call of `createClient`'s client may override. */
export const requestOptionsSchema = z.strictObject({
  signal: readByTheCall,
  idempotencyKey: readByTheCall,
  timeoutMs,
  deadlineMs,
  maxRetries,
  validate,
} satisfies Keys<RequestOptions>)

export const browserClientOptionsSchema = z.strictObject({
  publicKey: basicUser.meta(
    meta({
      expected:
        'the account\'s public key (such as pk_sandbox): a non-empty string without spaces or ":"',
    }),
  ),
  baseUrl: z.url(),
  fetch,
  timeoutMs,
  deadlineMs,
  maxRetries,
} satisfies Keys<BrowserClientOptions>)

export const browserRequestOptionsSchema = z.strictObject({
  signal: readByTheCall,
  idempotencyKey: readByTheCall,
} satisfies Keys<BrowserRequestOptions>)
