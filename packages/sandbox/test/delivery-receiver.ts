import { eventually as eventuallyPasses } from '../src/testing/index'

/**
 * The names the test files not yet written against `@chargekit/sandbox/testing` use for its
 * receiver: new tests import the kit itself.
 */
export type {
  ReceivedDelivery,
  Receiver,
  ReceiverAnswer as Answer,
  ReceiverRule as AnswerRule,
} from '../src/testing/index'
export { startReceiver } from '../src/testing/index'

/** Resolves when `condition()` holds, checking every few ms; rejects after `limitMs`. */
export async function eventually(condition: () => boolean, limitMs = 15_000, what = 'condition') {
  await eventuallyPasses(condition, { timeoutMs: limitMs, what })
}
