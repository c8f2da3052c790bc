import type { Sandbox } from '../start-sandbox'
import { authorization } from './authorization'

/** A failed check's reason: what went wrong, said so the processor's author knows what to fix. */
export class KitFailure extends Error {
  override readonly name = 'KitFailure'
}

/** An answer of the sandbox API, its body parsed. */
export interface KitAnswer {
  readonly status: number
  readonly headers: Headers
  // biome-ignore lint/suspicious/noExplicitAny: the kit checks each field it reads
  readonly body: any
}

export interface KitApi {
  /** Calls `/v2{path}` as the check's own account. */
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<KitAnswer>
  /** Calls and insists on `status`, else fails with `what` and the answer. */
  expect(
    status: number,
    what: string,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<KitAnswer>
}

/**
 * Calls the sandbox's API as `account`, in-process: the checks are about the processor, not the
 * transport (the customer's pages are still fetched over HTTP, as a browser would).
 */
export function kitApi(
  sandbox: Pick<Sandbox, 'apiUrl' | 'fetch'>,
  account: { id: string; privateKey: string },
): KitApi {
  const authorizationHeader = authorization(account.id, account.privateKey)
  const call: KitApi['call'] = async (method, path, body, headers = {}) => {
    const response = await sandbox.fetch(
      new Request(`${sandbox.apiUrl}${path}`, {
        method,
        headers: {
          authorization: authorizationHeader,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    )
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch {
      // Not JSON (a page): kept as text.
    }
    return { status: response.status, headers: response.headers, body: parsed }
  }
  return {
    call,
    async expect(status, what, method, path, body, headers) {
      const answer = await call(method, path, body, headers)
      if (answer.status !== status) {
        throw new KitFailure(
          `${what}: ${method} /v2${path} answered ${answer.status} ${summary(answer.body)}, expected ${status}`,
        )
      }
      return answer
    },
  }
}

/** The useful part of an answer body, for a message. */
export function summary(body: unknown): string {
  if (typeof body !== 'object' || body === null) return JSON.stringify(body)
  const { failure_code, failure_description, message, status, parameters } = body as Record<
    string,
    unknown
  >
  const parts = { status, failure_code, failure_description, message, parameters }
  return JSON.stringify(
    Object.fromEntries(Object.entries(parts).filter(([, value]) => value != null)),
  )
}

/**
 * Reads `path` until `done` says the object is settled, for at most `timeoutMs` of real time;
 * then fails with `onTimeout()`'s explanation. The kit never waits unbounded.
 */
export async function waitFor(
  api: KitApi,
  path: string,
  done: (body: Record<string, unknown>) => boolean,
  timeoutMs: number,
  onTimeout: (last: Record<string, unknown>) => string,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const answer = await api.expect(200, 'reading a pending object', 'GET', path)
    if (done(answer.body)) return answer.body
    if (Date.now() >= deadline) throw new KitFailure(onTimeout(answer.body))
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
