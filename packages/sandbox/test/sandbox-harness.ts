import {
  type ApiCaller,
  authorization,
  eventually as eventuallyPasses,
  startTestSandbox,
  type TestSandbox,
  type TestSandboxOptions,
  testCard,
} from '../src/testing/index'
import { freshStoreState } from './store-under-test'

/**
 * The names the test files not yet written against `@chargekit/sandbox/testing` use, each now
 * the kit's: new tests import the kit itself.
 */
export type { ApiAnswer, ApiCaller } from '../src/testing/index'
export type Harness = TestSandbox

export function basicAuth({ id, key }: { id: string; key: string }): string {
  return authorization(id, key)
}

/** The kit's test sandbox on the store under test, its API called over HTTP. */
export function startHarness(options: TestSandboxOptions = {}): Promise<Harness> {
  return startTestSandbox({ transport: 'http', state: freshStoreState, ...options })
}

export const cardFor = testCard

/** Polls until `check` passes; fails after `limitMs` (10 s). */
export function eventually<T>(check: () => Promise<T>, limitMs = 10_000): Promise<T> {
  return eventuallyPasses(check, { timeoutMs: limitMs }) as Promise<T>
}

/** Event types of a charge, oldest first. */
export async function eventTypesOf(api: ApiCaller, chargeId: string): Promise<string[]> {
  const answer = await api('GET', `/events?charge=${chargeId}&per_page=100`)
  return (answer.body.collection as { type: string }[]).map((event) => event.type).reverse()
}

/**
 * Opens the 3-D Secure page at an instrument's `redirect.url`, as the customer's browser does,
 * and reads its form: where it posts (absolute) and the challenge's token.
 */
export async function challengeForm(
  redirectUrl: string,
): Promise<{ action: string; token: string }> {
  const page = await fetch(redirectUrl, { redirect: 'manual' })
  const html = await page.text()
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1]
  if (action === undefined || token === undefined) {
    throw new Error(`No challenge form at ${redirectUrl} (status ${page.status})`)
  }
  return { action: new URL(action, redirectUrl).href, token }
}
