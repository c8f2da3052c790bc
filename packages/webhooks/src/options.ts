import * as z from 'zod/v4'
import { checkOptions, withMethods } from './check-options'
import type { DeliveryStore } from './delivery-store'
import { createMemoryDeliveryStore } from './memory-delivery-store'
import { createSignatureVerifier, type SignatureVerifier } from './signature'
import type { WebhooksClient, WebhooksOptions } from './types'

const DEFAULT_HANDLER_TIMEOUT_MS = 8_000
const DEFAULT_CLAIM_TTL_MS = 60_000

const milliseconds = 'must be a finite number of milliseconds > 0'
const signingSecrets =
  'must be a signing secret (whsec_<base64> or raw text), or a non-empty list of them'

/** The shape of `createWebhooks`' options; what a signing key must look like is the verifier's. */
const webhooksOptionsSchema = z
  .strictObject({
    client: z.custom<WebhooksClient>(
      (client) =>
        typeof (client as { events?: { retrieve?: unknown } } | undefined)?.events?.retrieve ===
        'function',
      {
        error:
          'must have events.retrieve(id); pass createClient({ accountId, privateKey, baseUrl }) from @chargekit/client',
      },
    ),
    store: withMethods(
      ['claim', 'complete', 'release'],
      'must be a DeliveryStore with claim, complete and release methods, such as createMemoryDeliveryStore() or createSqlDeliveryStore({ query })',
    ).optional(),
    secret: z
      .union([z.string(), z.array(z.string()).min(1, { error: signingSecrets })], {
        error: signingSecrets,
      })
      .optional(),
    toleranceSeconds: z
      .number({ error: 'must be a finite number of seconds >= 0' })
      .min(0, { error: 'must be a finite number of seconds >= 0' })
      .refine(Number.isFinite, { error: 'must be a finite number of seconds >= 0' })
      .optional(),
    handlerTimeoutMs: z
      .number({ error: milliseconds })
      .positive({ error: milliseconds })
      .refine(Number.isFinite, { error: milliseconds })
      .optional(),
    claimTtlMs: z
      .number({ error: milliseconds })
      .positive({ error: milliseconds })
      .refine(Number.isFinite, { error: milliseconds })
      .optional(),
  })
  .superRefine(({ handlerTimeoutMs = DEFAULT_HANDLER_TIMEOUT_MS, claimTtlMs }, context) => {
    if (claimTtlMs !== undefined && claimTtlMs < handlerTimeoutMs) {
      context.addIssue({
        code: 'custom',
        path: ['claimTtlMs'],
        message: `must be finite and at least handlerTimeoutMs (${handlerTimeoutMs}): a claim that expires while its handlers still run lets a retry run the event twice`,
      })
    }
  })

/** `WebhooksOptions` checked, with the defaults filled in. */
export interface ResolvedOptions {
  client: WebhooksClient
  store: DeliveryStore
  handlerTimeoutMs: number
  claimTtlMs: number
  /** Absent without a `secret`: deliveries are then authenticated by the event fetch alone. */
  verifySignature: SignatureVerifier | undefined
}

/** Throws `invalid_configuration`, naming the option and what it must be, for a bad one. */
export function resolveOptions(options: WebhooksOptions): ResolvedOptions {
  checkOptions('createWebhooks', webhooksOptionsSchema, options, new Set(['secret']))
  const handlerTimeoutMs = options.handlerTimeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS
  return {
    client: options.client,
    store: options.store ?? defaultStore(),
    handlerTimeoutMs,
    claimTtlMs: options.claimTtlMs ?? Math.max(DEFAULT_CLAIM_TTL_MS, 2 * handlerTimeoutMs),
    verifySignature:
      options.secret === undefined
        ? undefined
        : createSignatureVerifier(
            options.secret,
            options.toleranceSeconds === undefined
              ? {}
              : { toleranceSeconds: options.toleranceSeconds },
          ),
  }
}

let warnedAboutDefaultStore = false

/**
 * The memory store, with one warning per process (not per instance: an app that builds its
 * receiver per request or per test would repeat the same advice) that exactly-once then stops at
 * this process's edge. Passing any store, the memory store included, is the choice made and
 * silences it.
 */
function defaultStore(): DeliveryStore {
  if (!warnedAboutDefaultStore) {
    warnedAboutDefaultStore = true
    console.warn(
      "@chargekit/webhooks: createWebhooks was given no `store`, so handled events are remembered in this process's memory for 30 hours. Each event's handlers then run once only within this process: after a restart, or when another process of your app receives a redelivery, they run again. For exactly-once effects across restarts and processes, pass `store: createSqlDeliveryStore({ query })` (a table in your PostgreSQL database) or your own DeliveryStore; pass `store: createMemoryDeliveryStore()` to keep the memory store and silence this warning. (Told once per process.)",
    )
  }
  return createMemoryDeliveryStore()
}
