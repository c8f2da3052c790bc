import type { ChargeType } from '../processors/charge-type'
import { describeValue } from '../processors/outcome-check'
import { type KitAnswer, type KitApi, KitFailure, summary, waitFor } from './kit-api'
import { describeCall, type ProcessorMethod, type RecordingProcessor } from './recording-processor'

/** What every step needs: the check's account, the recorded processor, the time settings. */
export interface StepContext {
  readonly api: KitApi
  readonly recorder: RecordingProcessor
  readonly chargeType: ChargeType
  readonly currency: string
  /** The longest real-time wait for a pending answer. */
  readonly timeoutMs: number
  /** The sandbox's time scale, to explain a processor's delays in real time. */
  readonly timeScale: number
  /** Where the charges' events would go (the kit does not deliver them). */
  readonly eventsUrl: string
  /** Starts another sandbox with the processor, on another clock, with one account. */
  launch(timeScale: number): Promise<{ api: KitApi; close(): Promise<void> }>
}

// biome-ignore lint/suspicious/noExplicitAny: API objects, checked field by field
type ApiObject = Record<string, any>

/** The codes the sandbox gives a step whose processor threw or answered something malformed. */
const processorFaults: ReadonlySet<unknown> = new Set(['99.02.0001', '99.02.0004'])

/**
 * Why a step of the charge failed, pointing at the processor method when its answer was at
 * fault (the API only says 99.02.0001 Unexpected Processor Response); `fallback` otherwise.
 */
export function explain(
  context: StepContext,
  chargeId: string,
  failureCode: unknown,
  fallback: string,
): string {
  if (!processorFaults.has(failureCode)) return fallback
  const faulty = context.recorder.callsFor(chargeId).findLast((call) => call.problem !== undefined)
  return faulty === undefined ? fallback : describeCall(faulty)
}

/** `charges.create` for the check's charge type; a 402 is returned, not thrown. */
export async function createCharge(
  context: StepContext,
  amount: number,
  capturedOnCreation: boolean,
  headers?: Record<string, string>,
): Promise<KitAnswer> {
  const answer = await context.api.call(
    'POST',
    '/charges',
    {
      charge_type: context.chargeType.id,
      amount,
      currency: context.currency,
      events_url: context.eventsUrl,
      instrument_params: { captured_on_creation: capturedOnCreation },
    },
    headers,
  )
  if (answer.status !== 201 && answer.status !== 402) {
    throw new KitFailure(
      `POST /v2/charges (${context.chargeType.id}, ${amount} ${context.currency}) answered ${answer.status} ${summary(answer.body)}`,
    )
  }
  return answer
}

/** A confirmed charge, or a failure saying why the charge step declined it. */
export async function confirmedCharge(
  context: StepContext,
  amount: number,
  capturedOnCreation: boolean,
): Promise<ApiObject> {
  const answer = await createCharge(context, amount, capturedOnCreation)
  if (answer.status === 402) {
    const chargeId = answer.body?.metadata?.charge ?? ''
    throw new KitFailure(
      explain(
        context,
        chargeId,
        answer.body.failure_code,
        `onCharge() declined a charge of ${amount} ${context.currency} with ${answer.body.failure_code}: a plain amount must be confirmed`,
      ),
    )
  }
  return answer.body
}

/** `instruments.create` with the charge type's example; a 402 is returned, not thrown. */
export async function createInstrument(
  context: StepContext,
  chargeId: string,
  headers?: Record<string, string>,
  details: Record<string, unknown> = context.chargeType.example,
): Promise<KitAnswer> {
  const answer = await context.api.call(
    'POST',
    '/instruments',
    { ...details, charge: chargeId },
    headers,
  )
  if (answer.status === 400) {
    throw new KitFailure(
      `the instrument request ${describeValue(details)} was refused (400 ${summary(answer.body)}): the charge type's example must pass its instrumentRequest schema`,
    )
  }
  if (answer.status !== 201 && answer.status !== 402) {
    throw new KitFailure(`POST /v2/instruments answered ${answer.status} ${summary(answer.body)}`)
  }
  return answer
}

/** An authorization waiting: for whom, how the customer answers, and its delays. */
export interface PendingAuthorization {
  readonly awaiting: 'customer' | 'processor'
  /** The customer's action type: `approval_page`, `app` or `reference`. */
  readonly action: string
  readonly afterMs?: number
  readonly expiresAfterMs?: number
  readonly customerAnswer?: unknown
}

/** What the last authorize() of the charge answered, when it was `pending`. */
export function pendingAuthorization(
  context: StepContext,
  chargeId: string,
): PendingAuthorization | undefined {
  const answer = context.recorder.callsFor(chargeId, 'authorize').at(-1)?.answer as
    | ApiObject
    | undefined
  if (answer?.status !== 'pending') return undefined
  return {
    awaiting: answer.awaiting,
    action: answer.action?.type ?? 'approval_page',
    afterMs: answer.afterMs,
    expiresAfterMs: answer.expiresAfterMs,
    customerAnswer: answer.customerAnswer,
  }
}

/**
 * Takes a just-created instrument to its final state: waits for the processor's answer, or
 * gives the customer's (approving through the approval page when `viaPage`, else the test
 * helpers, paying a reference). Returns the instrument and how it got there.
 */
export async function finishInstrument(
  context: StepContext,
  created: KitAnswer,
  options: { viaPage?: boolean } = {},
): Promise<{ instrument: ApiObject; path: string }> {
  if (created.status === 402) {
    // The decline's body names the instrument it left invalid.
    const declined = await readInstrument(context, created.body.metadata?.instrument)
    return { instrument: declined, path: 'declined at once' }
  }
  let instrument: ApiObject = created.body
  const chargeId: string = instrument.charge?.id ?? ''
  if (instrument.status !== 'pending') return { instrument, path: `${instrument.status} at once` }
  const pending = pendingAuthorization(context, chargeId)
  if (pending?.awaiting === 'processor') {
    const answered = await waitFor(
      context.api,
      `/instruments/${instrument.id}`,
      (body) => body.status !== 'pending',
      context.timeoutMs,
      () => neverAnswered(context, 'instrument', instrument.id, 'authorize', pending.afterMs),
    )
    return { instrument: answered, path: 'pending awaiting the processor, then answered' }
  }
  const action = pending?.action ?? 'approval_page'
  if (action === 'approval_page' && options.viaPage === true) {
    await approveOnPage(instrument)
    instrument = await readInstrument(context, instrument.id)
    return { instrument, path: 'pending awaiting the customer, approved on the approval page' }
  }
  const answer = action === 'reference' ? 'pay' : 'approve'
  const answered = await context.api.expect(
    200,
    `the customer's ${answer}`,
    'POST',
    `/test/instruments/${instrument.id}/${answer}`,
    {},
  )
  const verb = answer === 'pay' ? 'paid its reference' : `approved (${action})`
  return { instrument: answered.body, path: `pending awaiting the customer, who ${verb}` }
}

async function readInstrument(context: StepContext, id: string): Promise<ApiObject> {
  return (await context.api.expect(200, 'reading the instrument', 'GET', `/instruments/${id}`)).body
}

/** The customer's browser: opens `redirect.url`, and submits the page's approve button. */
async function approveOnPage(instrument: ApiObject): Promise<void> {
  const url = instrument.redirect?.url
  if (typeof url !== 'string') {
    throw new KitFailure(
      `the instrument waits on an approval page but redirect.url is ${describeValue(url)}`,
    )
  }
  const page = await fetch(url, { redirect: 'manual' })
  const html = await page.text()
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1]
  if (page.status !== 200 || action === undefined || token === undefined) {
    throw new KitFailure(`the approval page at ${url} answered ${page.status} without its form`)
  }
  const submitted = await fetch(new URL(action.replaceAll('&amp;', '&'), url), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, outcome: 'authorize' }).toString(),
  })
  await submitted.arrayBuffer()
  if (submitted.status !== 200 && submitted.status !== 303) {
    throw new KitFailure(`approving on the approval page answered ${submitted.status}`)
  }
}

/** An instrument authorized from the charge type's example, or why it was not. */
export async function authorizedInstrument(
  context: StepContext,
  chargeId: string,
  options: { viaPage?: boolean } = {},
): Promise<{ instrument: ApiObject; path: string }> {
  const result = await finishInstrument(context, await createInstrument(context, chargeId), options)
  const { instrument } = result
  if (instrument.status !== 'authorized') {
    throw new KitFailure(
      explain(
        context,
        chargeId,
        instrument.failure_code,
        `the example instrument ${describeValue(context.chargeType.example)} ended ${instrument.status} (${instrument.failure_code ?? 'no code'}) after ${result.path}: with a plain amount it must be authorized`,
      ),
    )
  }
  return result
}

/** The steps after authorization, and the processor method that decides each. */
const movements = {
  payment: { method: 'capture', path: '/payments' },
  refund: { method: 'refund', path: '/refunds' },
  reversal: { method: 'reverse', path: '/reversals' },
} as const satisfies Record<string, { method: ProcessorMethod; path: string }>

type MovementKind = keyof typeof movements

/**
 * A capture, refund or reversal as POST answered it (or as read): waits out `pending` (the
 * processor's later answer) and returns the final object; a 402 becomes the failed object it
 * names.
 */
export async function finishMovement(
  context: StepContext,
  kind: MovementKind,
  chargeId: string,
  answer: KitAnswer,
): Promise<ApiObject> {
  const { path, method } = movements[kind]
  if (answer.status === 402) {
    const id = answer.body?.metadata?.[kind]
    if (typeof id !== 'string') return { status: 'error', ...answer.body }
    return (await context.api.expect(200, `reading the ${kind}`, 'GET', `${path}/${id}`)).body
  }
  if (answer.status !== 201 && answer.status !== 200) {
    throw new KitFailure(`the ${kind} answered ${answer.status} ${summary(answer.body)}`)
  }
  if (answer.body.status !== 'pending') return answer.body
  const afterMs = (context.recorder.callsFor(chargeId, method).at(-1)?.answer as ApiObject)?.afterMs
  return waitFor(
    context.api,
    `${path}/${answer.body.id}`,
    (body) => body.status !== 'pending',
    context.timeoutMs,
    () => neverAnswered(context, kind, answer.body.id, method, afterMs),
  )
}

/** A movement that must succeed: its final object, or why it failed. */
export async function succeededMovement(
  context: StepContext,
  kind: MovementKind,
  chargeId: string,
  answer: KitAnswer,
): Promise<ApiObject> {
  const result = await finishMovement(context, kind, chargeId, answer)
  if (result.status !== 'success') {
    throw new KitFailure(
      explain(
        context,
        chargeId,
        result.failure_code,
        `${movements[kind].method}() failed the ${kind} with ${result.failure_code ?? 'no code'} (${result.failure_description ?? ''}): with a plain amount it must succeed`,
      ),
    )
  }
  return result
}

function neverAnswered(
  context: StepContext,
  kind: string,
  id: string,
  method: ProcessorMethod,
  afterMs: unknown,
): string {
  const scaled =
    typeof afterMs === 'number'
      ? `: ${method}() answered awaiting the processor with afterMs ${afterMs}, which is ${afterMs * context.timeScale} ms at the kit's time scale ${context.timeScale}; answer within seconds of simulated time (or give checkProcessor a longer timeoutMs)`
      : ''
  return `the pending ${kind} ${id} never settled within ${context.timeoutMs} ms${scaled}`
}

/** The charge's event types, oldest first. */
async function eventTypes(context: StepContext, chargeId: string): Promise<string[]> {
  const answer = await context.api.expect(
    200,
    "listing the charge's events",
    'GET',
    `/events?charge=${chargeId}&per_page=100`,
  )
  return (answer.body.collection as { type: string }[]).map((event) => event.type).reverse()
}

/**
 * Checks that the charge's events of the `expected` types are exactly `expected`, in order
 * (other types, such as `instrument.risk`, may come between).
 */
export async function expectEvents(
  context: StepContext,
  chargeId: string,
  expected: readonly string[],
): Promise<string> {
  const watched = new Set(expected)
  const seen = (await eventTypes(context, chargeId)).filter((type) => watched.has(type))
  if (seen.join() !== expected.join()) {
    throw new KitFailure(
      `the events of charge ${chargeId} were ${seen.join(' → ') || 'none'}, expected ${expected.join(' → ')}`,
    )
  }
  return expected.join(' → ')
}
