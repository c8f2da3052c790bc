import { randomBytes } from 'node:crypto'
import type { Channel } from '@chargekit/schemas'
import { SandboxError } from '../errors'
import { newId } from '../ids'
import type { ChannelOffer, ProcessorRegistry } from '../processors/processor-registry'
import type { RateLimitOptions, SandboxAccountOptions } from './account-options'
import { keyedFingerprint } from './fingerprint'

/** An account as `sandbox.accounts` shows it: the credentials and the channels it may use. */
export interface SandboxAccount {
  readonly id: string
  /** For server-side calls: HTTP Basic with `id` as user and this as password. */
  readonly privateKey: string
  /** @deprecated The same value as `privateKey`, under its older name. */
  readonly key: string
  /** For the customer's browser: HTTP Basic with this as user and an empty password. */
  readonly publicKey: string
  readonly channels: readonly Channel[]
  /**
   * The Standard Webhooks secret its deliveries are signed with: give it to the receiver at its
   * `events_url` (`createWebhooks({ client, secret })`). Undefined when they go unsigned.
   */
  readonly signingSecret: string | undefined
}

/** Server-side state of an account; never leaves the process. */
export interface Account extends Omit<SandboxAccount, 'signingSecret'> {
  /** Card and phone fingerprints, keyed per account: one account's say nothing about another's. */
  fingerprint(value: string): string
  readonly rateLimit: RateLimitOptions | false | undefined
  /** The charge types its channels serve. */
  readonly chargeTypes: readonly string[]
  /** Its channels for a charge type; the first is the default of a charge that names none. */
  channelsFor(chargeType: string): readonly Channel[]
  /** The charge type a channel of this account serves; undefined for a label it lacks. */
  chargeTypeOf(label: string): string | undefined
}

const idPattern = /^[A-Za-z0-9_-]{1,64}$/

/**
 * Builds the accounts once at start-up, from a non-empty list (the options' schema says so); a
 * bad entry fails `startSandbox` with what to fix.
 */
export function createAccounts(
  options: readonly SandboxAccountOptions[],
  processors: ProcessorRegistry,
): Account[] {
  const seen = new Set<string>()
  const publicKeys = new Set<string>()
  return options.map((option) => {
    if (typeof option.id !== 'string' || !idPattern.test(option.id)) {
      throw new SandboxError(
        `Account id ${JSON.stringify(option.id)} is invalid: use 1–64 letters, digits, "_" or "-"`,
      )
    }
    const privateKey = option.privateKey ?? option.key
    if (!isCredential(privateKey)) {
      throw new SandboxError(
        `Account ${option.id} needs a privateKey: a non-empty string without ":"`,
      )
    }
    const publicKey = option.publicKey ?? generatedPublicKey()
    if (!isCredential(publicKey)) {
      throw new SandboxError(
        `Account ${option.id} has an invalid publicKey: expected a non-empty string without ":", such as pk_shop`,
      )
    }
    if (publicKey === privateKey) {
      throw new SandboxError(
        `Account ${option.id} uses its private key as public key: the public key is published in browsers, so it must differ`,
      )
    }
    if (seen.has(option.id)) throw new SandboxError(`Account ${option.id} is listed twice`)
    // The public key alone names the account, so two accounts cannot share one.
    if (publicKeys.has(publicKey)) {
      throw new SandboxError(`Account ${option.id} has the public key of another account`)
    }
    seen.add(option.id)
    publicKeys.add(publicKey)
    return createAccount(option, { privateKey, publicKey }, processors.channels)
  })
}

function isCredential(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && !value.includes(':')
}

function generatedPublicKey(): string {
  return `pk_${randomBytes(12).toString('base64url')}`
}

function createAccount(
  option: SandboxAccountOptions,
  keys: { privateKey: string; publicKey: string },
  available: readonly ChannelOffer[],
): Account {
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
  // error-testing channel (`no_processor`) is the default.
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
    ...keys,
    key: keys.privateKey,
    channels,
    chargeTypes: [...byChargeType.keys()],
    fingerprint: keyedFingerprint(randomBytes(32)),
    rateLimit: option.rateLimit,
    channelsFor: (chargeType) => byChargeType.get(chargeType) ?? [],
    chargeTypeOf: (label) => chargeTypeByLabel.get(label),
  }
}
