import type { Processor } from '../src/index'

/**
 * A processor whose authorize step waits until the test opens the gate: it makes "a request
 * still in flight" and "a processor slower than the request timeout" reproducible.
 */
export function gatedProcessor(name = 'gated') {
  let open: () => void = () => {}
  let gate = new Promise<void>((resolve) => {
    open = resolve
  })
  let arrive: () => void = () => {}
  let arrived = new Promise<void>((resolve) => {
    arrive = resolve
  })
  const processor: Processor = {
    name,
    chargeTypes: ['card_onetime'],
    async authorize() {
      arrive()
      await gate
      return { status: 'succeeded' }
    },
    capture: () => ({ status: 'succeeded' }),
    refund: () => ({ status: 'succeeded' }),
    reverse: () => ({ status: 'succeeded' }),
  }
  return {
    processor,
    release() {
      open()
    },
    /** Resolves once an authorize call is waiting at the gate. */
    waiting: () => arrived,
    /** Closes the gate again for the next test. */
    reset() {
      gate = new Promise<void>((resolve) => {
        open = resolve
      })
      arrived = new Promise<void>((resolve) => {
        arrive = resolve
      })
    },
  }
}
