import { randomBytes } from 'node:crypto'
import type { Channel } from '@chargekit/schemas'
import { SandboxError } from '../errors'
import { newId } from '../ids'
import type { ProcessorRegistry } from '../processors/processor-registry'
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
  /** The channel a charge of this type uses when it names none. */
  defaultChannel(chargeType: string): Channel | undefined
  channelByLabel(label: string): Channel | undefined
  readonly chargeTypes: readonly string[]
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
    return createAccount(option, allChannels(processors))
  })
}

function allChannels(processors: ProcessorRegistry): Channel[] {
  return processors.all.flatMap((processor) =>
    processor.chargeTypes.map((chargeType) => ({
      id: newId('chn'),
      label: `${chargeType}_${processor.name}`,
      processor: processor.name,
    })),
  )
}

function createAccount(option: SandboxAccountOptions, available: readonly Channel[]): Account {
  let channels = available
  if (option.channels !== undefined) {
    const unknown = option.channels.filter((label) => !available.some((c) => c.label === label))
    if (unknown.length > 0 || option.channels.length === 0) {
      throw new SandboxError(
        `Account ${option.id} lists unknown channels (${unknown.join(', ') || 'none given'}); available: ${available.map((c) => c.label).join(', ')}`,
      )
    }
    channels = available.filter((channel) => option.channels?.includes(channel.label))
  }
  const frozen = channels.map((channel) => Object.freeze({ ...channel }))
  const byLabel = new Map(frozen.map((channel) => [channel.label, channel]))
  const chargeTypeOf = (channel: Channel) =>
    channel.label.slice(0, channel.label.length - channel.processor.length - 1)
  const chargeTypes = [...new Set(frozen.map(chargeTypeOf))]
  return {
    id: option.id,
    key: option.key,
    channels: frozen,
    chargeTypes,
    fingerprintKey: randomBytes(32),
    rateLimit: option.rateLimit,
    // Registration order puts no_processor first: the spec's test channel is the default.
    defaultChannel: (chargeType) => frozen.find((channel) => chargeTypeOf(channel) === chargeType),
    channelByLabel: (label) => byLabel.get(label),
  }
}
