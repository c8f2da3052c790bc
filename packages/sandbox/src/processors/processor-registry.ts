import { SandboxError } from '../errors'
import type { ChargeType } from './charge-type'
import { mbwayProcessor } from './mbway'
import { multibancoProcessor } from './multibanco'
import { noProcessor } from './no-processor'
import { paypalProcessor } from './paypal'
import { payshopProcessor } from './payshop'
import type { Processor } from './processor'
import { simulatedAcquirer } from './simulated-acquirer'

/** The processors every sandbox has; `startSandbox({ processors })` adds to them. */
export const builtInProcessors: readonly Processor[] = [
  noProcessor,
  simulatedAcquirer,
  mbwayProcessor,
  multibancoProcessor,
  payshopProcessor,
  paypalProcessor,
]

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
  /** The definition of a charge type some processor serves. */
  chargeType(id: string): ChargeType | undefined
  /** Every processor's channels, in registration order; labels are unique. */
  readonly channels: readonly ChannelOffer[]
}

/** Checks each plug-in once at start-up, so a broken one fails `startSandbox`, not a payment. */
export function createProcessorRegistry(
  extra: readonly Processor[] = [],
  builtIns: readonly Processor[] = builtInProcessors,
): ProcessorRegistry {
  const byName = new Map<string, Processor>()
  const byLabel = new Map<string, ChannelOffer>()
  const processors = [...builtIns, ...extra]
  for (const processor of processors) checkProcessor(processor)
  const chargeTypes = defineChargeTypes(processors)
  for (const processor of processors) {
    if (byName.has(processor.name)) {
      throw new SandboxError(
        `Processor "${processor.name}" is registered twice: give your processor another name`,
      )
    }
    byName.set(processor.name, processor)
    for (const served of processor.chargeTypes) {
      const chargeType = typeof served === 'string' ? served : served.id
      if (!chargeTypes.has(chargeType)) {
        throw new SandboxError(
          `Processor "${processor.name}" serves charge type "${chargeType}", which no processor defines: give its ChargeType object (known: ${[...chargeTypes.keys()].join(', ')})`,
        )
      }
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
  return {
    get: (name) => byName.get(name),
    chargeType: (id) => chargeTypes.get(id),
    channels: [...byLabel.values()],
  }
}

/** Every charge type defined by an object; one id may have only one definition. */
function defineChargeTypes(processors: readonly Processor[]): Map<string, ChargeType> {
  const defined = new Map<string, ChargeType>()
  for (const processor of processors) {
    for (const chargeType of processor.chargeTypes) {
      if (typeof chargeType === 'string') continue
      checkChargeType(processor, chargeType)
      const earlier = defined.get(chargeType.id)
      if (earlier !== undefined && earlier !== chargeType) {
        throw new SandboxError(
          `Processor "${processor.name}" defines charge type "${chargeType.id}", which another processor already defines: serve it by its id ("${chargeType.id}") or share the one ChargeType object`,
        )
      }
      defined.set(chargeType.id, chargeType)
    }
  }
  return defined
}

function checkChargeType(processor: Processor, chargeType: ChargeType): void {
  const where = `Processor "${processor.name}" charge type ${JSON.stringify(chargeType.id)}`
  if (typeof chargeType.id !== 'string' || !namePattern.test(chargeType.id)) {
    throw new SandboxError(
      `${where}: the id must be lower-case letters, digits and underscores, starting with a letter (e.g. "mbway")`,
    )
  }
  if (typeof chargeType.label !== 'string' || chargeType.label === '') {
    throw new SandboxError(`${where} needs a label, such as "MB WAY"`)
  }
  const schema = chargeType.instrumentRequest as { shape?: unknown; safeParse?: unknown }
  if (typeof schema?.safeParse !== 'function' || typeof schema.shape !== 'object') {
    throw new SandboxError(
      `${where} needs instrumentRequest: a zod object schema of what the customer gives (z.object({}) for nothing)`,
    )
  }
  if ('charge' in (schema.shape as object)) {
    throw new SandboxError(
      `${where}: instrumentRequest must not declare "charge"; the sandbox adds and checks it`,
    )
  }
  const currencies = chargeType.currencies
  if (
    currencies !== undefined &&
    (!Array.isArray(currencies) ||
      currencies.length === 0 ||
      !currencies.every((code) => typeof code === 'string' && /^[A-Z]{3}$/.test(code)))
  ) {
    throw new SandboxError(
      `${where}: currencies must be a non-empty list of ISO 4217 codes such as ["EUR"], or absent for any currency`,
    )
  }
  const example = chargeType.instrumentRequest.safeParse(chargeType.example)
  if (!example.success) {
    throw new SandboxError(
      `${where}: its example does not pass its own instrumentRequest schema (${example.error.issues
        .map((issue) => `${issue.path.join('.') || 'example'}: ${issue.message}`)
        .join('; ')})`,
    )
  }
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
    !processor.chargeTypes.every(
      (type) =>
        (typeof type === 'string' && namePattern.test(type)) ||
        (typeof type === 'object' && type !== null),
    )
  ) {
    throw new SandboxError(
      `Processor "${processor.name}" needs chargeTypes: a non-empty array of ChargeType objects or ids like "card_onetime"`,
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
