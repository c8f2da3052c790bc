import type { Processor } from '@chargekit/sandbox'

/**
 * A sandbox processor plug-in whose first capture of each authorization is declined with a
 * retryable code (02.04.0000, Temporary Issue) and whose later captures go through: the shop's
 * channels never decline a capture only once, and a retry that succeeds needs exactly that.
 * Its channel is `card_onetime_flaky_acquirer`.
 */
export function flakyAcquirer(): Processor {
  const declinedOnce = new Set<string>()
  return {
    name: 'flaky_acquirer',
    chargeTypes: ['card_onetime'],
    authorize: () => ({ status: 'succeeded' }),
    capture(_context, request) {
      if (declinedOnce.has(request.instrument.id)) return { status: 'succeeded' }
      declinedOnce.add(request.instrument.id)
      return { status: 'failed', code: '02.04.0000' }
    },
    refund: () => ({ status: 'succeeded' }),
    reverse: () => ({ status: 'succeeded' }),
  }
}
