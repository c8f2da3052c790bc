import { idempotencyKeyRule, isIdempotencyKey } from '@chargekit/schemas'
import { type Operation, takesIdempotencyKey } from '@chargekit/schemas/operations'
import type { Context, Handler } from 'hono'
import type { SandboxClock } from '../clock'
import type { LifecycleDeps, StepContext } from '../lifecycle/context'
import { LifecycleError } from '../lifecycle/lifecycle-error'
import { ApiProblem, invalidParameters, problemOf, timedOut } from './api-problem'
import { canonicalJson } from './canonical-json'
import type { IdempotencyCache, StoredResult } from './idempotency'
import { IntegrationWarnings, linkBodyWarnings } from './integration-warnings'
import { maxBodyBytes, parseRequestBody, readBodyText } from './read-body'
import { requestHeader } from './request-header'
import { requestLogOf } from './request-log'
import { requestWarnings } from './request-warnings'
import type { SandboxEnv } from './sandbox-env'

export interface HttpSettings {
  deps: LifecycleDeps
  idempotency: IdempotencyCache
  /** An answer not ready by then is 504 04.02.0000; the work itself still finishes. */
  requestTimeoutMs: number
  /** Measures that time-out, so a test clock can move past it instead of waiting. */
  clock: SandboxClock
  /** The origin customers' browsers reach the sandbox at (never the request's Host). */
  publicUrl: string
  /** Whether a charge's `events_url` may be plain http to any host, not only to loopback. */
  allowHttpEventsUrl: boolean
}

export interface EndpointInput {
  c: Context<SandboxEnv>
  /** The body as read (JSON or form fields); undefined when there was none. */
  body: unknown
  step: StepContext
}

/**
 * Wraps one API operation of the table with what every endpoint shares: body limits and
 * parsing, idempotency for the writes that take a key, the per-request timeout, and rendering:
 * `run`'s result as JSON with the operation's success status, or nothing for a 204. Problems the
 * operation throws are answers too, so an idempotent retry replays a 402 or a 409 as well, and
 * the integration warnings the operation found in the body are stored with the answer and
 * replayed with it.
 */
export function endpoint(
  settings: HttpSettings,
  operation: Operation,
  run: (input: EndpointInput) => Promise<unknown>,
): Handler<SandboxEnv> {
  const writes = operation.method !== 'GET'
  return async (c) => {
    const warnings = requestWarnings(c)
    const text = writes ? await readBodyText(c, maxBodyBytes) : ''
    const body = parseRequestBody(c, text, warnings)
    // validateBody, called by the operation with the body alone, reports here.
    const bodyWarnings = new IntegrationWarnings()
    linkBodyWarnings(body, bodyWarnings)
    const step: StepContext = {
      deps: settings.deps,
      account: c.get('account'),
      requestLog: requestLogOf(c),
      warn: (warning) => bodyWarnings.add(warning),
    }
    const perform = async (): Promise<StoredResult> => ({
      ...(await answer(operation, () => run({ c, body, step }))),
      // As data: the answer may be stored in a database and replayed by another process.
      warnings: { list: bodyWarnings.list, omitted: bodyWarnings.omitted },
    })
    const key = takesIdempotencyKey(operation) ? requestHeader(c, 'idempotency-key') : undefined
    let pending: Promise<{ result: StoredResult; replayed: boolean }>
    if (key === undefined) {
      pending = perform().then((result) => ({ result, replayed: false }))
    } else {
      if (!isIdempotencyKey(key)) {
        throw invalidParameters({ 'Idempotency-Key': [`Expected ${idempotencyKeyRule}`] })
      }
      // The request as read: the path without a trailing slash, the body whatever its encoding.
      // A public-key request is another request: a replay must not show a browser the answer
      // its account's server was given, which carries fields only the server reads.
      const asked = c.get('credential') === 'public' ? 'public key ' : ''
      const fingerprint = `${asked}${c.req.method} ${c.req.path}\n${canonicalJson(body ?? {})}`
      pending = settings.idempotency.run(step.account.id, key, fingerprint, perform)
    }
    const { result, replayed } = await withTimeout(
      pending,
      settings.requestTimeoutMs,
      settings.clock,
    )
    warnings.merge(result.warnings)
    const headers: Record<string, string> = { ...result.headers }
    if (replayed) headers['idempotent-replayed'] = 'true'
    // Whatever a success of an operation without content was stored as, it answers nothing.
    if (operation.status === 204 && result.status < 300) return c.body(null, 204, headers)
    headers['content-type'] = 'application/json'
    return c.body(result.body, result.status as 200, headers)
  }
}

async function answer(
  operation: Operation,
  run: () => Promise<unknown>,
): Promise<Omit<StoredResult, 'warnings'>> {
  try {
    const body = await run()
    return { status: operation.status, body: JSON.stringify(body ?? null), headers: {} }
  } catch (error) {
    const problem = error instanceof LifecycleError ? problemOf(error) : error
    if (!(problem instanceof ApiProblem)) throw error
    return { status: problem.status, body: JSON.stringify(problem.body), headers: problem.headers }
  }
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number, clock: SandboxClock): Promise<T> {
  let cancel = () => {}
  const timeout = new Promise<never>((_, reject) => {
    cancel = clock.wakeAt(clock.now() + timeoutMs, () => reject(timedOut(timeoutMs)))
  })
  return Promise.race([work, timeout]).finally(cancel)
}
