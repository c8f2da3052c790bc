import { SandboxError } from '../errors'
import { noProcessor } from './no-processor'
import type { Processor } from './processor'
import { simulatedAcquirer } from './simulated-acquirer'

/** The processors every sandbox has; `startSandbox({ processors })` adds to them. */
export const builtInProcessors: readonly Processor[] = [noProcessor, simulatedAcquirer]

const namePattern = /^[a-z][a-z0-9_]*$/
const requiredMethods = ['authorize', 'capture', 'refund', 'reverse'] as const

/** A channel a processor offers: `{chargeType}_{processor}`, one per charge type it serves. */
export interface ChannelOffer {
  readonly label: string
  readonly processor: string
  readonly chargeType: string
}

export interface ProcessorRegistry {
  get(name: string): Processor | undefined
  /** Every processor's channels, in registration order; labels are unique. */
  readonly channels: readonly ChannelOffer[]
}

/** Checks each plug-in once at start-up, so a broken one fails `startSandbox`, not a payment. */
export function createProcessorRegistry(extra: readonly Processor[] = []): ProcessorRegistry {
  const byName = new Map<string, Processor>()
  const byLabel = new Map<string, ChannelOffer>()
  for (const processor of [...builtInProcessors, ...extra]) {
    checkProcessor(processor)
    if (byName.has(processor.name)) {
      throw new SandboxError(
        `Processor "${processor.name}" is registered twice: give your processor another name`,
      )
    }
    byName.set(processor.name, processor)
    for (const chargeType of processor.chargeTypes) {
      const offer = {
        label: `${chargeType}_${processor.name}`,
        processor: processor.name,
        chargeType,
      }
      const taken = byLabel.get(offer.label)
      if (taken !== undefined) throw labelCollision(offer, taken)
      byLabel.set(offer.label, offer)
    }
  }
  return { get: (name) => byName.get(name), channels: [...byLabel.values()] }
}

/**
 * `card_onetime_simulated` on processor `acquirer` and `card_onetime` on `simulated_acquirer`
 * would both be `card_onetime_simulated_acquirer`: a label must name one channel.
 */
function labelCollision(offer: ChannelOffer, taken: ChannelOffer): SandboxError {
  const same = offer.processor === taken.processor
  return new SandboxError(
    same
      ? `Processor "${offer.processor}" lists charge type "${offer.chargeType}" twice: list each once`
      : `Processor "${offer.processor}" with charge type "${offer.chargeType}" would have the channel label "${offer.label}", which is already processor "${taken.processor}"'s channel for charge type "${taken.chargeType}": rename the processor or the charge type`,
  )
}

function checkProcessor(processor: Processor): void {
  if (typeof processor !== 'object' || processor === null) {
    throw new SandboxError('Each entry of `processors` must be a Processor object')
  }
  if (typeof processor.name !== 'string' || !namePattern.test(processor.name)) {
    throw new SandboxError(
      `Processor name ${JSON.stringify(processor.name)} is invalid: use lower-case letters, digits and underscores, starting with a letter (e.g. "my_acquirer")`,
    )
  }
  if (
    !Array.isArray(processor.chargeTypes) ||
    processor.chargeTypes.length === 0 ||
    !processor.chargeTypes.every((type) => typeof type === 'string' && namePattern.test(type))
  ) {
    throw new SandboxError(
      `Processor "${processor.name}" needs chargeTypes: a non-empty array of names like "card_onetime"`,
    )
  }
  for (const method of requiredMethods) {
    if (typeof processor[method] !== 'function') {
      throw new SandboxError(`Processor "${processor.name}" must implement ${method}()`)
    }
  }
  const delay = processor.settlementDelayMs
  if (delay !== undefined && !(Number.isFinite(delay) && delay >= 0)) {
    throw new SandboxError(
      `Processor "${processor.name}" settlementDelayMs must be a number of ms >= 0`,
    )
  }
}
