import type { DeliveryStore } from './delivery-store'
import { WebhooksError } from './errors'
import { createMemoryDeliveryStore } from './memory-delivery-store'
import { createSignatureVerifier, type SignatureVerifier } from './signature'
import type { WebhooksClient, WebhooksOptions } from './types'

const DEFAULT_HANDLER_TIMEOUT_MS = 8_000
const DEFAULT_CLAIM_TTL_MS = 60_000

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
  const { client } = options
  if (typeof client?.events?.retrieve !== 'function') {
    throw new WebhooksError(
      'invalid_configuration',
      'createWebhooks: `client` must have events.retrieve(id); pass createClient({ accountId, privateKey, baseUrl }) from @chargekit/client.',
    )
  }
  const handlerTimeoutMs = options.handlerTimeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS
  if (!(Number.isFinite(handlerTimeoutMs) && handlerTimeoutMs > 0)) {
    throw new WebhooksError(
      'invalid_configuration',
      `handlerTimeoutMs must be a finite number of milliseconds > 0; got ${String(handlerTimeoutMs)}.`,
    )
  }
  const claimTtlMs = options.claimTtlMs ?? Math.max(DEFAULT_CLAIM_TTL_MS, 2 * handlerTimeoutMs)
  if (!(Number.isFinite(claimTtlMs) && claimTtlMs >= handlerTimeoutMs)) {
    throw new WebhooksError(
      'invalid_configuration',
      `claimTtlMs must be finite and at least handlerTimeoutMs (${handlerTimeoutMs}); got ${String(claimTtlMs)}. A claim that expires while its handlers still run lets a retry run the event twice.`,
    )
  }
  return {
    client,
    store: options.store ?? defaultStore(),
    handlerTimeoutMs,
    claimTtlMs,
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
