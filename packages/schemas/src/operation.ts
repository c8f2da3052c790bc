// What an entry of the operation table is, and the few rules every reader of the table shares.
// Without zod and without imports, so the clients can read the table in a few hundred bytes.

/**
 * Who may call an operation. `private`: the account id and private key (the merchant's server).
 * `public`: the public key as well (a customer's browser; everything else answers 403
 * 05.03.0000). `none`: no credentials at all, for what a browser navigates to and for the
 * contract itself.
 */
export type KeyScope = 'private' | 'public' | 'none'

/** The step a 402 of an operation declines, as its body's `metadata` names the objects. */
export type DeclinedStep = 'charge' | 'instrument' | 'payment' | 'refund' | 'reversal'

/**
 * The bodies and queries the table refers to, by the name they have in the OpenAPI document's
 * `components.schemas`. The zod schema of each is in `operation-schemas.ts`; the compiler
 * insists on one for every name.
 */
export type SchemaName =
  | 'Charge'
  | 'PublicCharge'
  | 'ChargeTypeList'
  | 'CreateChargeRequest'
  | 'Instrument'
  | 'CreateInstrumentRequest'
  | 'CreateReversalRequest'
  | 'Reversal'
  | 'Payment'
  | 'CreatePaymentRequest'
  | 'CreateRefundRequest'
  | 'CreateRefundOfPaymentRequest'
  | 'Refund'
  | 'Dispute'
  | 'CreateDisputeRequest'
  | 'SettleDisputeRequest'
  | 'Settlement'
  | 'Event'
  | 'RecordedRequest'
  | 'ChargeListQuery'
  | 'InstrumentListQuery'
  | 'PaymentListQuery'
  | 'RefundListQuery'
  | 'ReversalListQuery'
  | 'DisputeListQuery'
  | 'EventListQuery'
  | 'ListQuery'
  | 'ChallengePageQuery'
  | 'ChallengeForm'

/**
 * What a successful answer carries: an object, a page of a list of objects, nothing (204), an
 * HTML page for a person, or the OpenAPI document.
 */
export type OperationAnswer = SchemaName | { list: SchemaName } | 'nothing' | 'page' | 'document'

/**
 * What a client needs to call an operation: the route. Each is its own export of the table, so
 * a bundle carries only the routes it calls.
 */
export interface OperationRoute {
  /** `resource.method`: the client's method for it (`charges.create`, `testHelpers.settle`). */
  readonly id: string
  readonly method: 'GET' | 'POST' | 'DELETE'
  /** From the origin, with `{name}` for each path parameter: `/v2/{collection}/{id}/{step}`. */
  readonly path: string
  /** Each path parameter, and the prefix of the ids it takes (`ch_`), for examples and messages. */
  readonly params?: Readonly<Record<string, string>>
  /** Answers 402 with any catalogue code when the processor declines this step. */
  readonly declines?: DeclinedStep
}

/** What the sandbox and the contract need besides the route. */
export interface OperationContract {
  /** The status of a successful answer. */
  readonly status: 200 | 201 | 204
  readonly keys: KeyScope
  /**
   * Absent: no body (POST and DELETE take none or `{}`). JSON (or form fields, leniently) for
   * the API; form fields for a page's form.
   */
  readonly body?: SchemaName
  /** The query parameters, as one object schema. Absent: none are read. */
  readonly query?: SchemaName
  readonly answer: OperationAnswer
  /** What the public key reads instead of `answer`: only the fields a browser needs. */
  readonly publicAnswer?: SchemaName
  /** The 409 codes this operation answers with, each for a state that forbids the step. */
  readonly conflicts?: readonly string[]
  /** Answers 409 with the charge's own failure code when the charge step failed. */
  readonly refusesFailedCharge?: true
  /** A body field the public key may not set to `true` (403 05.03.0000), though it may call. */
  readonly publicKeyForbids?: string
  /** Only the sandbox has it: test helpers and the sandbox's own tools. */
  readonly sandboxOnly?: true
}

/**
 * One operation of the service, as the table lists it: its route and its contract. What people
 * read about it (summary, description) is in the OpenAPI generator's `operation-docs.ts`, so the
 * clients' bundles do not carry it.
 */
export interface Operation extends OperationRoute, OperationContract {}

/** An entry of the table: a route with its contract. */
export function operation<
  const Route extends OperationRoute,
  const Contract extends OperationContract,
>(route: Route, contract: Contract): Route & Contract {
  return { ...route, ...contract }
}

/**
 * Whether an operation takes `Idempotency-Key`: every write that credentials authorize. The
 * same key and body within 24 h replays the stored answer.
 */
export function takesIdempotencyKey(operation: Operation): boolean {
  return operation.method !== 'GET' && operation.keys !== 'none'
}

/** The root every path of the table starts with. */
export const apiRoot = '/v2'

/** The names of a path's parameters, in order: `/v2/a/{first}/b/{second}` → `['first', 'second']`. */
export function pathParameters(path: string): string[] {
  return Array.from(path.matchAll(/\{(\w+)\}/g), (match) => match[1] as string)
}

/** A path with each `{name}` replaced by its value, percent-encoded (`{id}` → `ch_1`). */
export function expandPath(path: string, values: Readonly<Record<string, string>>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''))
}

/**
 * A path's pattern for matching request paths, each parameter one non-empty segment (or
 * `segment` when given, narrower).
 */
export function pathPattern(path: string, segment = '[^/]+'): RegExp {
  const literal = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
  return new RegExp(`^${literal.replace(/\{\w+\}/g, segment)}$`)
}
