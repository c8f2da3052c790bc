import { type Sandbox, startSandbox } from '@chargekit/sandbox'
import { type Event, eventTypeList } from '@chargekit/schemas'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { runInProcess, stopRunningClis } from './cli-process'

let sandbox: Sandbox
let env: Record<string, string>

beforeAll(async () => {
  // The simulated acquirer's 2 s confirmations take 2 ms.
  sandbox = await startSandbox({ port: 0, timeScale: 0.001, deliverEvents: false })
  env = { CHARGEKIT_BASE_URL: sandbox.url }
})
afterAll(() => sandbox.close())
afterEach(stopRunningClis)

interface Flow {
  event_type: string
  charge: string
  objects: Record<string, { id: string; status?: string; failure_code?: string | null }>
  events: Event[]
}

describe('chargekit trigger', () => {
  it('emits every one of the 22 event types, each through its own charge', async () => {
    const run = await runInProcess(['trigger', ...eventTypeList, '--json'], env)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const { flows } = JSON.parse(run.stdout) as { flows: Flow[] }
    expect(flows.map((flow) => flow.event_type)).toEqual([...eventTypeList])
    for (const flow of flows) {
      const types = flow.events.map((event) => event.type)
      expect(types, flow.event_type).toContain(flow.event_type)
      // Oldest first, all of the flow's own charge, and the charge is among the objects.
      expect(types[0], flow.event_type).toBe('charge.created')
      expect(new Set(flow.events.map((event) => event.charge?.id))).toEqual(new Set([flow.charge]))
      expect(flow.objects.charge?.id).toBe(flow.charge)
    }
    expect(new Set(flows.map((flow) => flow.charge)).size).toBe(22)
    const flow = (type: string) => flows.find((candidate) => candidate.event_type === type) as Flow
    // The declines come from test amounts, with the codes the help names.
    expect(flow('instrument.risk').objects.instrument).toMatchObject({
      status: 'invalid',
      failure_code: '06.02.0000',
    })
    expect(flow('charge.error').objects.charge?.failure_code).toBe('02.04.0000')
    expect(flow('payment.error').objects.payment?.status).toBe('error')
    expect(flow('refund.error').objects.refund?.status).toBe('error')
    expect(flow('reversal.error').objects.reversal?.status).toBe('error')
    expect(flow('instrument.pending').objects.instrument?.status).toBe('pending')
    expect(flow('dispute.settled').objects.dispute?.status).toBe('won')
    // The charges say which flow made them, for whoever reads the events later.
    expect(flow('refund.pending').events[0]?.charge?.metadata).toEqual({
      chargekit_trigger: 'refund.pending',
    })
  })

  it('runs the test-amount flow for any code and element, and prints it for people', async () => {
    const [atPayment, atReversal] = await Promise.all([
      runInProcess(['trigger', '--error', '03.03.0001', '--at', 'payment'], env),
      runInProcess(
        [
          'trigger',
          '--error',
          '05.04.0000',
          '--at',
          'reversal',
          '--events-url',
          'https://shop.example/webhooks',
          '--metadata',
          'order=1042',
          '--json',
        ],
        env,
      ),
    ])
    expect(atPayment.code).toBe(0)
    // The documented example: 03.03.0001 at the payment is a charge of 3030001.30.
    expect(atPayment.stdout).toContain('a charge of 3030001.30 EUR on card_onetime_no_processor')
    expect(atPayment.stdout).toMatch(/payment\s+pa_\w+\s+error\s+3030001\.30 EUR\s+03\.03\.0001/)
    expect(atPayment.stdout).toMatch(/payment\.error\s+ev_\w+\s+pa_\w+/)
    expect(atReversal.code).toBe(0)
    const [flow] = (JSON.parse(atReversal.stdout) as { flows: Flow[] }).flows
    expect(flow?.event_type).toBe('reversal.error')
    expect(flow?.objects.reversal).toMatchObject({ status: 'error', failure_code: '05.04.0000' })
    expect(flow?.events[0]?.charge).toMatchObject({
      events_url: 'https://shop.example/webhooks',
      metadata: { chargekit_trigger: 'reversal.error', order: '1042' },
    })
  })

  it('refuses a bad command line with exit code 2 and a one-line reason', async () => {
    const [typo, code, both] = await Promise.all([
      runInProcess(['trigger', 'payment.sucess'], env),
      runInProcess(['trigger', '--error', '6.2', '--at', 'instrument'], env),
      runInProcess(['trigger', '--error', '06.02.0000', '--at', 'instrumnt'], env),
    ])
    expect(typo).toMatchObject({ code: 2, stdout: '' })
    expect(typo.stderr).toBe(
      'chargekit: unknown event type "payment.sucess" (did you mean payment.success?). Run chargekit trigger --help for the event types.\n',
    )
    expect(code.code).toBe(2)
    expect(code.stderr).toContain('--error expects a catalogue code in the form XX.YY.ZZZZ')
    expect(both.code).toBe(2)
    expect(both.stderr).toContain(
      '--at expects one of charge, instrument, payment, refund, reversal; got "instrumnt" (did you mean instrument?)',
    )
  })
})
