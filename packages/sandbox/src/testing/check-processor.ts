import { testElements } from '@chargekit/errors'
import * as z from 'zod'
import { SandboxError } from '../errors'
import type { SandboxLogger } from '../logger'
import type { ChargeType } from '../processors/charge-type'
import type { Processor } from '../processors/processor'
import { builtInProcessors, createProcessorRegistry } from '../processors/processor-registry'
import { launchSandbox } from '../start-sandbox'
import { type KitApi, KitFailure, kitApi } from './kit-api'
import type { StepContext } from './kit-steps'
import {
  capturedOnCreation,
  customerAnswers,
  type DeclineRecipe,
  declineRecipe,
  idempotentRetries,
  paymentFlow,
  reversalFlow,
  type Scenario,
  testAmount,
} from './processor-checks'
import { type ProcessorCheck, type ProcessorReport, processorReport } from './processor-report'
import { recordingProcessor } from './recording-processor'

export interface CheckProcessorOptions {
  /**
   * The charge amount of the flows.
   * @default 10
   */
  amount?: number
  /**
   * The charges' currency.
   * @default 'EUR'
   */
  currency?: string
  /**
   * How to get a decline when the processor does not say `honoursTestAmounts` (a test card
   * number, a phone number that refuses…); `false` when it never declines. Without either, the
   * `decline` check fails and says so.
   */
  decline?: DeclineRecipe | false
  /**
   * The sandbox's time scale: the processor's delays (`afterMs`, `settlementDelayMs`) pass this
   * many times faster. Keep the customer's deadlines (`expiresAfterMs`) longer than a few
   * requests at this scale; the kit checks the deadlines themselves on a faster clock.
   * @default 0.02
   */
  timeScale?: number
  /**
   * The longest the kit waits, in real time, for a pending answer before it fails the check.
   * @default 5000
   */
  timeoutMs?: number
}

const ignore = () => {}
const silentLogger: SandboxLogger = { info: ignore, warn: ignore, error: ignore }

const positive = z.number().positive().max(Number.MAX_SAFE_INTEGER)

/** The options, checked so a typo is an error naming the field rather than a silent default. */
const optionsSchema = z.strictObject({
  amount: positive.optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'Expected an ISO 4217 code such as EUR')
    .optional(),
  decline: z
    .union([
      z.literal(false),
      z.strictObject({
        chargeType: z.string().optional(),
        amount: positive.optional(),
        details: z.record(z.string(), z.unknown()).optional(),
      }),
    ])
    .optional(),
  timeScale: positive.optional(),
  timeoutMs: positive.optional(),
})

/** Where the kit's charges send their events: nowhere, as the kit reads them from the API. */
const eventsUrl = 'https://merchant.example/chargekit-events'

/**
 * Drives a real sandbox, over HTTP with the public API only, through every step the processor
 * claims, for every charge type it serves: charge, instrument (waiting for the processor, or
 * answering as the customer), capture, capture on creation, refund, reversal, settlement,
 * declines (by test amounts when it `honoursTestAmounts`), the customer's decline and expiry,
 * idempotent retries, and the events of each step in order. Independent checks run at once,
 * each in its own account. Never throws for the processor's faults: they are in the report;
 * invalid options throw a `SandboxError` naming the option.
 */
export async function checkProcessor(
  processor: Processor,
  options: CheckProcessorOptions = {},
): Promise<ProcessorReport> {
  const checked = optionsSchema.safeParse(options)
  if (!checked.success) {
    const problems = checked.error.issues.map(
      (issue) => `${['options', ...issue.path].join('.')}: ${issue.message}`,
    )
    throw new SandboxError(`checkProcessor: ${problems.join('; ')}`)
  }
  const name = typeof processor?.name === 'string' ? processor.name : String(processor?.name)
  const started = performance.now()
  // A built-in processor is checked in its own place; any other is added to the built-ins, and
  // the registry refuses it as the sandbox would (a name taken, a charge type defined twice).
  const builtIns = builtInProcessors.filter((builtIn) => builtIn !== processor)
  let chargeTypes: ChargeType[]
  try {
    const registry = createProcessorRegistry([processor], builtIns)
    chargeTypes = processor.chargeTypes.map((served) => {
      const type = registry.chargeType(typeof served === 'string' ? served : served.id)
      if (type === undefined) throw new KitFailure(`charge type ${String(served)} is not defined`)
      return type
    })
  } catch (error) {
    return processorReport(name, [
      {
        name: 'registers in the sandbox',
        ok: false,
        message: messageOf(error),
        durationMs: performance.now() - started,
      },
    ])
  }
  const amount = options.amount ?? 10
  const recorder = recordingProcessor(processor)
  // Each account has only the processor's channels, so every charge goes to it.
  const channels = chargeTypes.map((type) => `${type.id}_${name}`)
  const launch = async (timeScale: number, accounts: number) => {
    const sandbox = await launchSandbox(
      {
        port: 0,
        processors: [recorder.processor],
        timeScale,
        deliverEvents: false,
        // What the sandbox would log about the processor, the report says better.
        logger: silentLogger,
        accounts: Array.from({ length: accounts }, (_, index) => ({
          id: `acct_kit_${index + 1}`,
          privateKey: `sk_kit_${index + 1}`,
          channels,
        })),
      },
      builtIns,
    )
    return {
      apis: sandbox.accounts.map((account) => kitApi(sandbox, account)),
      close: () => sandbox.close(),
    }
  }
  const timeScale = options.timeScale ?? 0.02
  const planned = plan(processor, chargeTypes, options, amount)
  const sandbox = await launch(timeScale, planned.length)
  try {
    const results = await Promise.all(
      planned.map(({ chargeType, scenario }, index) => {
        const context: StepContext = {
          api: sandbox.apis[index] as KitApi,
          recorder,
          chargeType,
          currency: options.currency ?? 'EUR',
          timeoutMs: options.timeoutMs ?? 5_000,
          timeScale,
          eventsUrl,
          launch: async (otherScale) => {
            const other = await launch(otherScale, 1)
            return { api: other.apis[0] as KitApi, close: other.close }
          },
        }
        return runScenario(`${chargeType.id}: `, context, scenario)
      }),
    )
    return processorReport(name, [
      ...results.flat(),
      ...declineSetupProblems(processor, chargeTypes, options),
    ])
  } finally {
    await sandbox.close()
  }
}

/** Every scenario the processor's claims call for, per charge type. */
function plan(
  processor: Processor,
  chargeTypes: readonly ChargeType[],
  options: CheckProcessorOptions,
  amount: number,
): { chargeType: ChargeType; scenario: Scenario }[] {
  const planned = chargeTypes.flatMap((chargeType) => {
    const scenarios = [
      paymentFlow(amount),
      capturedOnCreation(amount),
      reversalFlow(amount),
      idempotentRetries(amount),
      customerAnswers(amount),
    ]
    if (processor.honoursTestAmounts === true) {
      scenarios.push(
        ...testElements
          .filter((element) => element !== 'refund' || chargeType.refundable !== false)
          .map(testAmount),
      )
    }
    return scenarios.map((scenario) => ({ chargeType, scenario }))
  })
  const recipe = options.decline
  if (recipe !== undefined && recipe !== false) {
    const chargeType = chargeTypes.find((type) => type.id === (recipe.chargeType ?? type.id))
    // A charge type the processor does not serve is reported by declineSetupProblems.
    if (chargeType !== undefined) {
      planned.push({ chargeType, scenario: declineRecipe(recipe, amount) })
    }
  }
  return planned
}

/** The failed `decline` check when the kit has no way, or a wrong one, to get a decline. */
function declineSetupProblems(
  processor: Processor,
  chargeTypes: readonly ChargeType[],
  options: CheckProcessorOptions,
): ProcessorCheck[] {
  const recipe = options.decline
  const fail = (message: string) => [{ name: 'decline', ok: false, message, durationMs: 0 }]
  if (recipe === undefined && processor.honoursTestAmounts !== true) {
    return fail(
      'no way to get a decline: set honoursTestAmounts on the processor (and fail the step the charge amount encodes), or tell the kit how with options.decline ({ details, amount, chargeType }); decline: false if it never declines',
    )
  }
  const wanted = recipe === undefined || recipe === false ? undefined : recipe.chargeType
  if (wanted !== undefined && !chargeTypes.some((type) => type.id === wanted)) {
    return fail(
      `options.decline.chargeType is "${wanted}", which the processor does not serve (it serves ${chargeTypes.map((type) => type.id).join(', ')})`,
    )
  }
  return []
}

/** Runs a scenario's steps in order, one check each, until one fails. */
async function runScenario(
  prefix: string,
  context: StepContext,
  scenario: Scenario,
): Promise<ProcessorCheck[]> {
  const checks: ProcessorCheck[] = []
  let running = ''
  let since = performance.now()
  try {
    await scenario(context, async (name, run) => {
      running = name
      since = performance.now()
      const message = await run()
      checks.push({
        name: `${prefix}${name}`,
        ok: true,
        message,
        durationMs: performance.now() - since,
      })
      running = ''
    })
  } catch (error) {
    checks.push({
      name: `${prefix}${running || 'setting up'}`,
      ok: false,
      message: messageOf(error),
      durationMs: performance.now() - since,
    })
  }
  return checks
}

function messageOf(error: unknown): string {
  if (error instanceof KitFailure) return error.message
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}
