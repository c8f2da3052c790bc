// The sandbox's test cards: card numbers with a fixed outcome, honoured by every built-in card
// channel. One table, read by the processors, the docs page (a test holds it to the table) and
// the example shop's card form.

import type { ErrorCode } from '@chargekit/errors'
import type { Instrument } from '@chargekit/schemas'
import type { FinalOutcome, Outcome } from '../processors/outcome'
import type { AuthorizeRequest, CardInput } from '../processors/processor'

/** A card number with a fixed outcome. A row sets at most one of the optional behaviours. */
export interface TestCard {
  /** The card number, digits only; the customer may type it grouped by spaces or dashes. */
  readonly number: string
  /** What the card does, in a few words (as the docs and the example shop show it). */
  readonly summary: string
  /** The issuer declines the authorization with this code (`instrument.invalid`). */
  readonly declines?: ErrorCode
  /**
   * The issuer requires 3-D Secure: without `instrument_params.enable3ds` the authorization is
   * declined with `06.01.0002` 3DS Required. With it, the customer meets the 3-D Secure page, and
   * `'customer'` lets their answer decide while `'fails'` fails authentication whatever they
   * answer (`06.01.0000` 3DS Error).
   */
  readonly threeDSecure?: 'customer' | 'fails'
  /** The authorization succeeds, and every capture of it is declined with this code. */
  readonly captureDeclines?: ErrorCode
  /** Every code the card's outcome may carry, in the order of the steps; none for a card that pays. */
  readonly codes: readonly ErrorCode[]
}

/** Declined without 3-D Secure: the issuer requires it. */
const threeDSecureRequired = '06.01.0002'
/** The customer failed 3-D Secure authentication (or the card made it fail). */
const authenticationFailed = '06.01.0000'

/**
 * The test cards, as acquirers publish for their test environments (the numbers payments
 * developers already know from them). Any other number is approved, unless its expiry date has
 * passed (`03.00.0002`, whatever the processor).
 */
export const testCards: readonly TestCard[] = (
  [
    { number: '4242424242424242', summary: 'Approved (Visa)' },
    { number: '5555555555554444', summary: 'Approved (Mastercard)' },
    { number: '4000000000000002', summary: 'Declined by the issuer', declines: '03.03.0000' },
    { number: '4000000000009995', summary: 'Insufficient funds', declines: '02.03.0000' },
    { number: '4000000000009987', summary: 'Lost card', declines: '03.03.0001' },
    { number: '4000000000009979', summary: 'Stolen card', declines: '03.03.0001' },
    {
      number: '4000000000000069',
      summary: 'Expired card, whatever expiry date is given',
      declines: '03.00.0002',
    },
    { number: '4000000000000119', summary: 'Processor unavailable', declines: '04.01.0000' },
    {
      number: '4100000000000019',
      summary: "Blocked by the processor's risk rules",
      declines: '06.02.0000',
    },
    { number: '4000002760003184', summary: '3-D Secure required', threeDSecure: 'customer' },
    { number: '4000008400001280', summary: '3-D Secure fails', threeDSecure: 'fails' },
    {
      number: '4000000000000341',
      summary: 'Authorized, then every capture fails',
      captureDeclines: '03.00.0001',
    },
  ] satisfies Omit<TestCard, 'codes'>[]
).map((row) => ({ ...row, codes: codesOf(row) }))

function codesOf(row: Omit<TestCard, 'codes'>): ErrorCode[] {
  if (row.threeDSecure === 'customer') return [threeDSecureRequired]
  if (row.threeDSecure === 'fails') return [threeDSecureRequired, authenticationFailed]
  return [row.declines ?? row.captureDeclines].filter((code) => code !== undefined)
}

const byNumber: ReadonlyMap<string, TestCard> = new Map(testCards.map((row) => [row.number, row]))

/**
 * The full number is only ever seen at the authorization: later steps know the card by the first
 * six and last four digits the instrument keeps, which tell the test cards apart.
 */
const byBinAndLast4: ReadonlyMap<string, TestCard> = new Map(
  testCards.map((row) => [binAndLast4(row.number.slice(0, 6), row.number.slice(-4)), row]),
)

function binAndLast4(bin: string | undefined, last4: string | undefined): string {
  return `${bin}…${last4}`
}

/** The test card the customer entered, if it is one. */
export function testCardNumbered(card: CardInput | undefined): TestCard | undefined {
  return card === undefined ? undefined : byNumber.get(card.number)
}

/** The test card an instrument was authorized with, if it was one. */
export function testCardOf(instrument: Instrument): TestCard | undefined {
  const { bin, last_4_digits } = instrument.params
  return bin === undefined ? undefined : byBinAndLast4.get(binAndLast4(bin, last_4_digits))
}

/**
 * A card authorization on a built-in card channel: the test card's fixed answer, else the 3-D
 * Secure page when the charge asks for it, else approved. Asking for 3DS is a risk rule, so the
 * page is reported as one (`instrument.risk`).
 */
export function authorizeCard(request: AuthorizeRequest, testCard: TestCard | undefined): Outcome {
  if (testCard?.declines !== undefined) return { status: 'failed', code: testCard.declines }
  if (testCard?.threeDSecure !== undefined && !request.enable3ds) {
    return { status: 'failed', code: threeDSecureRequired }
  }
  if (request.enable3ds) return { status: 'pending', awaiting: 'customer', risk: true }
  return { status: 'succeeded' }
}

/** The customer's answer on the 3-D Secure page, unless the test card fails authentication. */
export function answerCardChallenge(
  approved: boolean,
  testCard: TestCard | undefined,
): FinalOutcome {
  return approved && testCard?.threeDSecure !== 'fails'
    ? { status: 'succeeded' }
    : { status: 'failed', code: authenticationFailed }
}

/** A capture of a card authorization: declined for a test card whose captures fail. */
export function captureCard(testCard: TestCard | undefined): FinalOutcome {
  return testCard?.captureDeclines === undefined
    ? { status: 'succeeded' }
    : { status: 'failed', code: testCard.captureDeclines }
}
