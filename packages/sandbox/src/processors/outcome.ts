// What a processor answers for a step: through, declined, or waiting for the customer or for
// itself. Its own file, below both the processor interface and the charge types that decline.

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
