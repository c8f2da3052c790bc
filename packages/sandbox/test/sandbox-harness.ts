import {
  startTestSandbox,
  type TestSandbox,
  type TestSandboxOptions,
  testCard,
} from '../src/testing/index'
import { freshStoreState } from './store-under-test'

/**
 * The kit's names under their old ones, for three-ds-browser.test.ts only: its browser opens the
 * sandbox's pages, so the API goes over HTTP too. Delete this file once it imports the kit.
 */
export type Harness = TestSandbox

/** The kit's test sandbox on the store under test, its API called over HTTP. */
export function startHarness(options: TestSandboxOptions = {}): Promise<Harness> {
  return startTestSandbox({ transport: 'http', state: freshStoreState, ...options })
}

export const cardFor = testCard
