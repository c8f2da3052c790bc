import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import {
  builtInProcessors,
  cardOnetime,
  defineChargeType,
  noProcessor,
  type Outcome,
  type Processor,
  simulatedAcquirer,
} from '../src/index'
import {
  type CheckProcessorOptions,
  checkProcessor,
  type ProcessorReport,
  processorTests,
} from '../src/testing/index'

/** A card the simulated acquirer always declines. */
const declinedCard = { ...cardOnetime.example, number: '4000000000000002' }

/** How the kit gets a decline from each shipped processor that does not honour test amounts. */
const shippedOptions: Record<string, CheckProcessorOptions> = {
  simulated_acquirer: { decline: { details: declinedCard } },
}

/** The check named `name`, which must exist. */
function check(report: ProcessorReport, name: string) {
  const found = report.checks.find((each) => each.name === name)
  if (found === undefined) {
    throw new Error(`no check "${name}" in:\n${report.format()}`)
  }
  return found
}

/** Gift cards: the customer gives a code; a processor fails wherever a test below breaks it. */
const giftCard = defineChargeType({
  id: 'gift_card',
  label: 'Gift card',
  recurring: false,
  instrumentRequest: z.object({ code: z.string().regex(/^[A-Z0-9]{8}$/) }),
  example: { code: 'GIFT2024' },
})

const approve = (): Outcome => ({ status: 'succeeded' })

/** A well-behaved gift-card processor that declines the code REFUSE00; tests break one method. */
function giftCardProcessor(overrides: Partial<Processor> = {}): Processor {
  return {
    name: 'gift_cards',
    chargeTypes: [giftCard],
    authorize: (_context, { details }) =>
      details.code === 'REFUSE00' ? { status: 'failed', code: '03.00.0001' } : approve(),
    capture: approve,
    refund: approve,
    reverse: approve,
    ...overrides,
  }
}

const giftDecline: CheckProcessorOptions = { decline: { details: { code: 'REFUSE00' } } }

describe('checkProcessor', () => {
  it('passes every shipped processor, through each step it claims', async () => {
    const reports = await Promise.all(
      builtInProcessors.map((processor) =>
        checkProcessor(processor, shippedOptions[processor.name]),
      ),
    )
    for (const report of reports) expect(report.ok, report.format()).toBe(true)
    const byName = new Map(reports.map((report) => [report.processor, report]))
    // Each way of waiting was gone through: the processor's later answer, the app, the
    // reference, the approval page.
    expect(
      check(byName.get('simulated_acquirer') as ProcessorReport, 'card_onetime: capture').message,
    ).toContain('pending, then success')
    expect(check(byName.get('mbway') as ProcessorReport, 'mbway: instrument').message).toContain(
      'approved (app)',
    )
    expect(
      check(byName.get('multibanco') as ProcessorReport, 'multibanco: instrument').message,
    ).toContain('paid its reference')
    expect(check(byName.get('paypal') as ProcessorReport, 'paypal: instrument').message).toContain(
      'approval page',
    )
    // A charge type that cannot be refunded is checked for its 409, and has no refund test amount.
    const multibanco = byName.get('multibanco') as ProcessorReport
    expect(check(multibanco, 'multibanco: refund refused (not refundable)').ok).toBe(true)
    expect(multibanco.checks.some((each) => each.name.includes('(refund)'))).toBe(false)
    // The deadline is checked where there is one; every test-amount element where honoured.
    expect(check(byName.get('mbway') as ProcessorReport, 'mbway: deadline honoured').ok).toBe(true)
    const testAmounts = (byName.get('no_processor') as ProcessorReport).checks.filter((each) =>
      each.name.startsWith('card_onetime: test amount'),
    )
    expect(testAmounts.map((each) => each.name)).toEqual([
      'card_onetime: test amount 2030000.10 (charge)',
      'card_onetime: test amount 2030000.20 (instrument)',
      'card_onetime: test amount 2030000.30 (payment)',
      'card_onetime: test amount 2030000.40 (refund)',
      'card_onetime: test amount 2030000.50 (reversal)',
    ])
    expect(
      check(byName.get('simulated_acquirer') as ProcessorReport, 'card_onetime: decline').message,
    ).toContain('03.03.0000')
  })

  it('fails a processor answering malformed outcomes, naming the method and what is wrong', async () => {
    const report = await checkProcessor(
      giftCardProcessor({
        authorize: () => ({ status: 'pendng' }) as never,
      }),
      giftDecline,
    )
    expect(report.ok).toBe(false)
    expect(check(report, 'gift_card: instrument').message).toBe(
      `authorize() answered {"status":"pendng"}: expected status 'succeeded' | 'failed' | 'pending' (got status "pendng")`,
    )
    const printed = report.format()
    expect(printed).toContain('processor gift_cards:')
    expect(printed).toMatch(/^✗ gift_card: instrument \(\d+ ms\): authorize\(\) answered/m)
    expect(String(report)).toBe(printed)

    const pendingWithoutAnswer = await checkProcessor(
      giftCardProcessor({
        capture: () => ({ status: 'pending', awaiting: 'processor', afterMs: 10 }) as never,
        reverse: () => ({ status: 'pending', awaiting: 'customer' }),
      }),
      giftDecline,
    )
    expect(check(pendingWithoutAnswer, 'gift_card: capture').message).toBe(
      'capture() answered {"status":"pending","awaiting":"processor","afterMs":10}: the outcome awaiting the processor must carry `outcome`, the final answer it gives after afterMs',
    )
    expect(check(pendingWithoutAnswer, 'gift_card: reversal').message).toBe(
      `reverse() answered {"status":"pending","awaiting":"customer"}: only authorize() may wait for the customer (awaiting: 'customer'): answer at once, or awaiting: 'processor' with afterMs and outcome`,
    )
    // What depends on neither still passes.
    expect(check(pendingWithoutAnswer, 'gift_card: instrument').ok).toBe(true)
    expect(check(pendingWithoutAnswer, 'gift_card: decline').ok).toBe(true)
  })

  it('fails a processor that never settles a pending payment, after a bounded wait', async () => {
    const started = performance.now()
    const report = await checkProcessor(
      giftCardProcessor({
        capture: () => ({
          status: 'pending',
          awaiting: 'processor',
          afterMs: 1e12,
          outcome: { status: 'succeeded' },
        }),
      }),
      { ...giftDecline, timeoutMs: 300 },
    )
    expect(performance.now() - started).toBeLessThan(5_000)
    expect(check(report, 'gift_card: capture').message).toMatch(
      /^the pending payment pa_\w+ never settled within 300 ms: capture\(\) answered awaiting the processor with afterMs 1000000000000, which is 20000000000 ms at the kit's time scale 0.02; answer within seconds of simulated time/,
    )
    expect(check(report, 'gift_card: captured on creation').ok).toBe(false)
  })

  it('fails a processor whose refund throws', async () => {
    const report = await checkProcessor(
      giftCardProcessor({
        refund: () => {
          throw new Error('ledger offline')
        },
      }),
      giftDecline,
    )
    expect(check(report, 'gift_card: refund').message).toBe(
      "refund() threw Error: ledger offline: a processor decides outcomes and does not throw; answer { status: 'failed', code } to decline",
    )
    expect(check(report, 'gift_card: capture').ok).toBe(true)
    // The scenario stops at its first failure: nothing after the refund is reported as passed.
    expect(report.checks.some((each) => each.name === 'gift_card: settlement')).toBe(false)
  })

  it('fails a processor that claims honoursTestAmounts and ignores them', async () => {
    const report = await checkProcessor(giftCardProcessor({ honoursTestAmounts: true }))
    const failed = report.checks.filter((each) => !each.ok).map((each) => each.name)
    // No onCharge: the .10 charge cannot fail either.
    expect(failed).toEqual([
      'gift_card: test amount 2030000.10 (charge)',
      'gift_card: test amount 2030000.20 (instrument)',
      'gift_card: test amount 2030000.30 (payment)',
      'gift_card: test amount 2030000.40 (refund)',
      'gift_card: test amount 2030000.50 (reversal)',
    ])
    expect(check(report, 'gift_card: test amount 2030000.20 (instrument)').message).toBe(
      'a charge of 2030000.20 encodes 02.03.0000 at the instrument step, but the instrument went through: the processor says honoursTestAmounts, so it must fail that step with the encoded code',
    )
  })

  it('fails a processor with no way to decline, or one the sandbox would refuse to register', async () => {
    const noDecline = await checkProcessor(giftCardProcessor())
    expect(check(noDecline, 'decline').message).toMatch(
      /^no way to get a decline: set honoursTestAmounts/,
    )
    expect(noDecline.checks.filter((each) => !each.ok)).toHaveLength(1)
    const wrongType = await checkProcessor(giftCardProcessor(), {
      decline: { chargeType: 'mbway', details: { code: 'REFUSE00' } },
    })
    expect(check(wrongType, 'decline').message).toBe(
      'options.decline.chargeType is "mbway", which the processor does not serve (it serves gift_card)',
    )

    const clash = await checkProcessor({ ...noProcessor, chargeTypes: [giftCard] })
    expect(clash.ok).toBe(false)
    expect(clash.checks).toEqual([
      expect.objectContaining({
        name: 'registers in the sandbox',
        message:
          'SandboxError: Processor "no_processor" is registered twice: give your processor another name',
      }),
    ])
  })
  it('refuses options it cannot use, naming the option', async () => {
    await expect(
      checkProcessor(giftCardProcessor(), { timeoutMs: -1, decline: { detail: {} } } as never),
    ).rejects.toThrow(
      'checkProcessor: options.decline: Unrecognized key: "detail"; options.timeoutMs: Too small: expected number to be >0',
    )
  })
})

describe('processorTests', () => {
  it('registers one test per check, failing with its message', async () => {
    const suites: { name: string; body: () => Promise<void> | void }[] = []
    const tests: { name: string; body: () => void }[] = []
    processorTests(
      giftCardProcessor({ reverse: () => ({ status: 'failed', code: '12.34.5678' }) }),
      {
        describe: (name, body) => suites.push({ name, body }),
        it: (name, body) => tests.push({ name, body }),
      },
      giftDecline,
    )
    expect(suites.map((suite) => suite.name)).toEqual(['processor gift_cards'])
    await suites[0]?.body()
    const reversal = tests.find((test) => test.name === 'gift_card: reversal')
    expect(reversal?.body).toThrow(
      `reverse() answered {"status":"failed","code":"12.34.5678"}: a failed outcome needs code, a catalogue error code such as '03.03.0000' (got "12.34.5678")`,
    )
    const capture = tests.find((test) => test.name === 'gift_card: capture')
    expect(capture?.body).not.toThrow()
  })
})

// The vitest helper on a real processor: one test per check below.
processorTests(simulatedAcquirer, { describe, it }, shippedOptions.simulated_acquirer)
