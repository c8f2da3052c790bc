import type { ApiPromise } from './api-promise'
import type { ClientOptions, RequestOptions } from './client-options'
import { type ClientConfig, resolveConfig } from './config'
import { type RawRequest, rawRequest } from './raw-request'
import { createRequestLoop } from './request-loop'
import { type ChargesResource, chargesResource } from './resources/charges'
import { type DisputesResource, disputesResource } from './resources/disputes'
import { type EventsResource, eventsResource } from './resources/events'
import { type InstrumentsResource, instrumentsResource } from './resources/instruments'
import { type PaymentsResource, paymentsResource } from './resources/payments'
import { type RefundsResource, refundsResource } from './resources/refunds'
import { type ReversalsResource, reversalsResource } from './resources/reversals'
import { type SettlementsResource, settlementsResource } from './resources/settlements'
import { type TestHelpersResource, testHelpersResource } from './resources/test-helpers'

/** The client: one object per resource of the service (charges, instruments, payments, …). */
export interface ChargekitClient {
  readonly charges: ChargesResource
  readonly instruments: InstrumentsResource
  readonly payments: PaymentsResource
  readonly refunds: RefundsResource
  readonly reversals: ReversalsResource
  readonly disputes: DisputesResource
  readonly settlements: SettlementsResource
  readonly events: EventsResource
  readonly testHelpers: TestHelpersResource
  /**
   * Sends any call with the client's auth, Idempotency-Key, retries, timeouts and typed errors:
   * for an endpoint without a method here. The body is `unknown` unless `schema` checks it.
   */
  request<T = unknown>(request: RawRequest<T>, options?: RequestOptions): ApiPromise<T>
}

/**
 * Creates a client. Options fall back to `CHARGEKIT_BASE_URL`, `CHARGEKIT_ACCOUNT_ID` and
 * `CHARGEKIT_PRIVATE_KEY` where the runtime has an environment; anything missing or malformed
 * throws a `ChargekitError` now that says what to pass. The credentials stay in a closure: they
 * are not properties of the client, so logging the client cannot print them.
 */
export function createClient(options?: ClientOptions): ChargekitClient {
  return clientFromConfig(resolveConfig(options))
}

/** The client of an already checked configuration; the client's own tests swap parts of it. */
export function clientFromConfig(config: ClientConfig): ChargekitClient {
  const call = createRequestLoop(config)
  return Object.freeze({
    charges: chargesResource(call),
    instruments: instrumentsResource(call),
    payments: paymentsResource(call),
    refunds: refundsResource(call),
    reversals: reversalsResource(call),
    disputes: disputesResource(call),
    settlements: settlementsResource(call),
    events: eventsResource(call, config),
    testHelpers: testHelpersResource(call),
    request: rawRequest(call),
  })
}
