import type { Channel, Charge, Instrument, Payment } from '@chargekit/schemas'

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

/** The card the customer entered. Only the authorize step sees the full number. */
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
  readonly card: CardInput
  readonly amount: Money
  /** The charge's `instrument_params.enable3ds`: the merchant asks for a 3DS challenge. */
  readonly enable3ds: boolean
  readonly recurring: boolean
}

export interface ChallengeRequest {
  readonly instrument: Instrument
  /** What the customer chose on the 3DS page. */
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
 * The customer must act (authorize only): the core serves a 3DS page, links it from the
 * instrument's `redirect`, and calls `completeChallenge` with the customer's choice.
 */
export interface AwaitingCustomerOutcome {
  readonly status: 'pending'
  readonly awaiting: 'customer'
  readonly transactionId?: string
  readonly risk?: boolean
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
  /** The charge types it serves; every account gets a channel for each. */
  readonly chargeTypes: readonly string[]
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
  /** Decides a 3DS challenge; absent means approved → succeeded, refused → 06.01.0000. */
  completeChallenge?(
    context: ProcessorContext,
    request: ChallengeRequest,
  ): MaybePromise<FinalOutcome>
  capture(context: ProcessorContext, request: CaptureRequest): MaybePromise<Outcome>
  refund(context: ProcessorContext, request: RefundRequest): MaybePromise<Outcome>
  reverse(context: ProcessorContext, request: ReverseRequest): MaybePromise<Outcome>
}
