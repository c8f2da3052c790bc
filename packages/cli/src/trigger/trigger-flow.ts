import {
  type Charge,
  type ChargekitClient,
  type CreateChargeRequest,
  type Dispute,
  type Instrument,
  type Payment,
  PaymentError,
} from '@chargekit/client'
import type { TestElement } from '@chargekit/errors'
import { CliError } from '../errors'
import { pollUntil } from '../poll'

export interface FlowSettings {
  /** The charge's `events_url`: where the service delivers the flow's events. */
  eventsUrl: string
  /** The charge's metadata. */
  metadata: Record<string, string>
  /** How long to wait for an asynchronous answer (an acquirer confirming a payment). */
  timeoutMs: number
  signal?: AbortSignal | undefined
}

/**
 * The steps trigger flows are made of, each one call of the service's public API. The flow
 * remembers its charge: every event it causes is found by that charge's id.
 */
export class TriggerFlow {
  chargeId: string | undefined
  readonly #client: ChargekitClient
  readonly #settings: FlowSettings

  constructor(client: ChargekitClient, settings: FlowSettings) {
    this.#client = client
    this.#settings = settings
  }

  /** A 10 EUR one-time card charge unless `params` say otherwise. */
  async charge(params: Partial<CreateChargeRequest> = {}): Promise<Charge> {
    const charge = await this.#client.charges.create({
      charge_type: 'card_onetime',
      amount: 10,
      currency: 'EUR',
      events_url: this.#settings.eventsUrl,
      metadata: this.#settings.metadata,
      ...params,
    })
    this.chargeId = charge.id
    return charge
  }

  /** A card that every processor authorizes, for the flow's charge. */
  instrument(): Promise<Instrument> {
    return this.#client.instruments.create({
      charge: this.#charge(),
      name: 'Ada Lovelace',
      number: '4242424242424242',
      expiration_month: 12,
      expiration_year: new Date().getUTCFullYear() + 3,
      cvc: '123',
    })
  }

  /** The payment captured when the instrument was created (one-time charges by default). */
  async capturedPayment(instrument: Instrument): Promise<Payment> {
    const id = instrument.last_payment?.id
    if (id === undefined) {
      throw new CliError(
        `instrument ${instrument.id} was not captured on creation, so there is no payment to go on with`,
      )
    }
    return this.#client.payments.retrieve(id)
  }

  /** A charge with a card, captured on creation: the payment. */
  async paid(params: Partial<CreateChargeRequest> = {}): Promise<Payment> {
    await this.charge(params)
    return this.capturedPayment(await this.instrument())
  }

  /** Waits until an asynchronous processor has confirmed the payment. */
  paymentSucceeded(payment: Payment): Promise<Payment> {
    return pollUntil(
      async () => {
        const current = await this.#client.payments.retrieve(payment.id)
        return current.status === 'pending' ? undefined : current
      },
      {
        timeoutMs: this.#settings.timeoutMs,
        what: `payment ${payment.id} to be confirmed`,
        signal: this.#settings.signal,
      },
    )
  }

  refund(payment: Payment) {
    return this.#client.payments.refund(payment.id, { amount: payment.amount })
  }

  reverse(instrument: Instrument) {
    return this.#client.instruments.reverse(instrument.id)
  }

  /** Settles every settleable payment and refund of the account (a sandbox test helper). */
  settle() {
    return this.#client.testHelpers.settle()
  }

  dispute(payment: Payment) {
    return this.#client.testHelpers.dispute(payment.id)
  }

  settleDispute(dispute: Dispute) {
    return this.#client.testHelpers.settleDispute(dispute.id, { outcome: 'won' })
  }

  /**
   * Runs a step that must be declined with a 402 (a test amount's doing): the failed object
   * persists in its failed state and its events follow.
   */
  async declined(element: TestElement, step: () => Promise<unknown>): Promise<PaymentError> {
    try {
      await step()
    } catch (error) {
      if (!(error instanceof PaymentError)) throw error
      // A declined charge is created all the same: its id is in the answer.
      if (element === 'charge') this.chargeId ??= error.objectId
      return error
    }
    throw new CliError(
      `the ${element} was not declined: test amounts make the service fail a step only on a channel whose processor is no_processor`,
    )
  }

  #charge(): string {
    if (this.chargeId === undefined) throw new Error('the flow has no charge yet')
    return this.chargeId
  }
}
