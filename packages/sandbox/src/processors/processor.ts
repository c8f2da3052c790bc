import type { Channel, Charge, Instrument, Payment } from '@chargekit/schemas'
import type { ChargeType } from './charge-type'

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

/** The step went through. `risk: true` (authorize only) also emits `instrument.risk`. */
export interface SucceededOutcome {
  readonly status: 'succeeded'
  /** The processor's reference; the core makes one up when absent. */
  readonly transactionId?: string
  readonly risk?: boolean
}

/**
 * The step was declined or failed. `code` is a catalogue code (`XX.YY.ZZZZ`); the core answers
 * 402 with it and fills `description` from the catalogue's designation when absent. A 06.* code
 * at the authorize step also emits `instrument.risk`.
 */
export interface FailedOutcome {
  readonly status: 'failed'
  readonly code: string
  readonly description?: string
  readonly transactionId?: string
}

export type FinalOutcome = SucceededOutcome | FailedOutcome

/**
 * What the customer is asked to do, shown in the instrument's `redirect`:
 * - `approval_page`: a page the sandbox serves (3-D Secure, a wallet's approval), linked from
 *   `redirect.url`; the customer approves or refuses there.
 * - `app`: a notification the customer answers in an app on their phone (MB WAY); `redirect` has
 *   `url: null` and the `parameters` given here.
 * - `reference`: a payment reference the customer pays at an ATM, in home banking or in a shop
 *   (Multibanco, Payshop); `redirect` has `url: null` and the `parameters` (entity, reference,
 *   amount…). Paying it approves the authorization.
 */
export type CustomerAction =
  | { readonly type: 'approval_page' }
  | { readonly type: 'app'; readonly parameters?: Readonly<Record<string, string | number>> }
  | { readonly type: 'reference'; readonly parameters: Readonly<Record<string, string | number>> }

/**
 * The customer must act (authorize only). The core shows them what `action` says, and calls
 * `completeChallenge` with their answer: given on the sandbox's approval page, through the test
 * helpers (approve, decline, pay a reference), or by the simulated customer of `customerAnswer`.
 */
export interface AwaitingCustomerOutcome {
  readonly status: 'pending'
  readonly awaiting: 'customer'
  readonly transactionId?: string
  readonly risk?: boolean
  /** Default: the sandbox's approval page (3-D Secure). */
  readonly action?: CustomerAction
  /**
   * How long the customer has (scaled by `timeScale`): past it, the core declines the
   * authorization with 03.00.0002 Instrument Expired (`instrument.invalid`). Shown to the
   * customer as `redirect.parameters.expires_at`. Absent: no deadline.
   */
  readonly expiresAfterMs?: number
  /**
   * A simulated customer who answers by themself after `afterMs` (scaled), as a test phone
   * number or reference would: `approved: true` approves or pays, `false` refuses.
   */
  readonly customerAnswer?: { readonly afterMs: number; readonly approved: boolean }
}

/**
 * The processor answers later: the step is `pending` now, and after `afterMs` (scaled by the
 * sandbox's `timeScale`) the core applies `outcome`, emitting the step's success or error event.
 * The answer is decided up front and kept as data with the sandbox's other timed work, so it
 * still arrives, once, after the sandbox restarts or in another sandbox process sharing the
 * database.
 */
export interface AwaitingProcessorOutcome {
  readonly status: 'pending'
  readonly awaiting: 'processor'
  readonly afterMs: number
  readonly transactionId?: string
  /** The answer given after `afterMs`: final, and plain JSON data. */
  readonly outcome: FinalOutcome
}

export type PendingOutcome = AwaitingCustomerOutcome | AwaitingProcessorOutcome
export type Outcome = FinalOutcome | PendingOutcome

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
