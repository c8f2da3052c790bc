import { WebhooksError } from '@chargekit/webhooks'
import { expect } from 'vitest'

/**
 * The message of the `invalid_configuration` WebhooksError that `make` throws; fails the test
 * when it throws anything else, or nothing.
 */
export function configurationRefusal(make: () => unknown): string {
  try {
    make()
  } catch (error) {
    expect(error).toBeInstanceOf(WebhooksError)
    expect((error as WebhooksError).code).toBe('invalid_configuration')
    return (error as WebhooksError).message
  }
  throw new Error('expected a refusal')
}
