import { randomBytes } from 'node:crypto'
import type { Channel } from '@chargekit/schemas'
import { SandboxError } from '../errors'
import { newId } from '../ids'
import type { ChannelOffer, ProcessorRegistry } from '../processors/processor-registry'
import type { RateLimitOptions, SandboxAccountOptions } from './account-options'

/** An account as `sandbox.accounts` shows it: the credentials and the channels it may use. */
export interface SandboxAccount {
  readonly id: string
  readonly key: string
  readonly channels: readonly Channel[]
}

/** Server-side state of an account; never leaves the process. */
export interface Account extends SandboxAccount {
  /** Keys card fingerprints, so one account's fingerprints say nothing about another's cards. */
  readonly fingerprintKey: Buffer
  readonly rateLimit: RateLimitOptions | false | undefined
  /** The charge types its channels serve. */
  readonly chargeTypes: readonly string[]
  /** Its channels for a charge type; the first is the default of a charge that names none. */
  channelsFor(chargeType: string): readonly Channel[]
  /** The charge type a channel of this account serves; undefined for a label it lacks. */
  chargeTypeOf(label: string): string | undefined
}

const idPattern = /^[A-Za-z0-9_-]{1,64}$/

/** Builds the accounts once at start-up; a bad entry fails `startSandbox` with what to fix. */
export function createAccounts(
  options: readonly SandboxAccountOptions[],
  processors: ProcessorRegistry,
): Account[] {
  if (!Array.isArray(options) || options.length === 0) {
    throw new SandboxError('`accounts` must be a non-empty array of { id, key }')
  }
  const seen = new Set<string>()
  return options.map((option) => {
    if (typeof option?.id !== 'string' || !idPattern.test(option.id)) {
      throw new SandboxError(
        `Account id ${JSON.stringify(option?.id)} is invalid: use 1–64 letters, digits, "_" or "-"`,
      )
    }
    if (typeof option.key !== 'string' || option.key.length === 0 || option.key.includes(':')) {
      throw new SandboxError(`Account ${option.id} needs a non-empty key without ":"`)
    }
    if (seen.has(option.id)) throw new SandboxError(`Account ${option.id} is listed twice`)
    seen.add(option.id)
    return createAccount(option, processors.channels)
  })
}

function createAccount(option: SandboxAccountOptions, available: readonly ChannelOffer[]): Account {
  let offers = available
  if (option.channels !== undefined) {
    const unknown = option.channels.filter((label) => !available.some((c) => c.label === label))
    if (unknown.length > 0 || option.channels.length === 0) {
      throw new SandboxError(
        `Account ${option.id} lists unknown channels (${unknown.join(', ') || 'none given'}); available: ${available.map((c) => c.label).join(', ')}`,
      )
    }
    offers = available.filter((offer) => option.channels?.includes(offer.label))
  }
  // Each account has its own channel ids; registration order puts no_processor first, so the
  // spec's test channel is the default.
  const channels = offers.map(({ label, processor }) =>
    Object.freeze({ id: newId('chn'), label, processor }),
  )
  const byChargeType = new Map<string, Channel[]>()
  offers.forEach(({ chargeType }, index) => {
    const channel = channels[index] as Channel
    byChargeType.set(chargeType, [...(byChargeType.get(chargeType) ?? []), channel])
  })
  const chargeTypeByLabel = new Map(offers.map((offer) => [offer.label, offer.chargeType]))
  return {
    id: option.id,
    key: option.key,
    channels,
    chargeTypes: [...byChargeType.keys()],
    fingerprintKey: randomBytes(32),
    rateLimit: option.rateLimit,
    channelsFor: (chargeType) => byChargeType.get(chargeType) ?? [],
    chargeTypeOf: (label) => chargeTypeByLabel.get(label),
  }
}
