import type { Channel, Charge, Instrument, Payment } from '@chargekit/schemas'
import type { ChargeType } from './charge-type'
import type { FinalOutcome, Outcome } from './outcome'

/**
 * An amount in the charge's currency, both as the API shows it (`amount`, major units) and as
 * exact minor units for arithmetic. Never add or compare `amount` as a float: use `minorUnits`.
 */
export interface Money {
  readonly amount: number
  readonly currency: string
  readonly minorUnits: bigint
}

/** What every processor call knows: the account, the channel in use and the charge. */
export interface ProcessorContext {
  readonly accountId: string
  readonly channel: Channel
  readonly charge: Charge
}

/** The card the customer entered. Only the authorize step sees the full number and the CVC. */
export interface CardInput {
  readonly name: string
  readonly number: string
  readonly expirationMonth: number
  readonly expirationYear: number
  readonly cvc: string
  readonly brand: string
  readonly bin: string
  readonly last4: string
}

export interface ChargeStepRequest {
  readonly amount: Money
}

export interface AuthorizeRequest {
  readonly instrumentId: string
  /** The charge's charge type (`card_onetime`, `mbway`). */
  readonly chargeType: string
  /** What the customer gave, validated and normalised by the charge type's instrument schema. */
  readonly details: Readonly<Record<string, unknown>>
  /** The card, when the details are a card's (the card charge types). */
  readonly card?: CardInput
  readonly amount: Money
  /** The charge's `instrument_params.enable3ds`: the merchant asks for a 3DS challenge. */
  readonly enable3ds: boolean
  readonly recurring: boolean
}

export interface ChallengeRequest {
  readonly instrument: Instrument
  /** The customer approved (or paid the reference), or refused. */
  readonly approved: boolean
}

export interface CaptureRequest {
  readonly paymentId: string
  readonly instrument: Instrument
  readonly amount: Money
}

export interface RefundRequest {
  readonly refundId: string
  readonly payment: Payment
  readonly amount: Money
}

export interface ReverseRequest {
  readonly reversalId: string
  readonly instrument: Instrument
  readonly amount: Money
}

type MaybePromise<T> = T | Promise<T>

/**
 * A processor plug-in. It only decides outcomes: the sandbox core owns storage,
 * validation, legal transitions, idempotency and events, and calls a processor only for a step
 * that is legal in the transaction's current state.
 */
export interface Processor {
  /** Channel labels are `{charge_type}_{name}`: lower-case letters, digits and underscores. */
  readonly name: string
  /**
   * The charge types it serves; every account gets a channel for each. A charge type is
   * defined once, by its object; an id names one defined by the sandbox (`card_onetime`,
   * `card_recurring`, `mbway`, `multibanco`, `payshop_reference`, `paypal`) or by another
   * registered processor.
   */
  readonly chargeTypes: readonly (ChargeType | string)[]
  /**
   * Whether it follows error testing by amount (the charge amount encodes a code and the step
   * it fails); the conformance kit then checks it does for every step.
   */
  readonly honoursTestAmounts?: boolean
  /** Shown as `external_ids.descriptor` (the text on the cardholder's statement). */
  readonly descriptor?: string
  /**
   * When set, the core settles this processor's successful payments and refunds that long
   * after they succeed (scaled by `timeScale`), as an acquirer's settlement batch would.
   */
  readonly settlementDelayMs?: number
  /** Decides the charge step; absent means every charge is confirmed. */
  onCharge?(context: ProcessorContext, request: ChargeStepRequest): MaybePromise<FinalOutcome>
  authorize(context: ProcessorContext, request: AuthorizeRequest): MaybePromise<Outcome>
  /**
   * Decides the customer's answer to an `awaiting: 'customer'` authorization; absent means
   * approved → succeeded, refused → 06.01.0000 3DS Error.
   */
  completeChallenge?(
    context: ProcessorContext,
    request: ChallengeRequest,
  ): MaybePromise<FinalOutcome>
  capture(context: ProcessorContext, request: CaptureRequest): MaybePromise<Outcome>
  refund(context: ProcessorContext, request: RefundRequest): MaybePromise<Outcome>
  reverse(context: ProcessorContext, request: ReverseRequest): MaybePromise<Outcome>
}
