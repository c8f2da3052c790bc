// pnpm test:contract, a step of the test command after the build: the OpenAPI document
// (docs/openapi.json) checked by tools nobody here wrote, against the real sandbox.
//
// 0. A fresh `chargekit-sandbox` (the built CLI) serves it at /openapi.json, and its /docs page
//    renders the reference in Chromium, offline (a screenshot in test-artifacts/contract/).
// 1. Redocly CLI lints it with its strictest rules (redocly.yaml): no error.
// 2. Prism, as a validating proxy between @chargekit/client and a sandbox, sees the lifecycle
//    tour (every operation, every event type, error answers): no answer breaks the document, and
//    the only requests that do are the ones the tour sends invalid on purpose, each refused with
//    a 400. A test-only corrupted answer must make it report a mismatch.
// 3. openapi-typescript generates types from it; a payment written with openapi-fetch against
//    them type-checks under `tsc --strict` and runs against a sandbox: charge, instrument,
//    payment, refund.
import { execFileSync, spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { quietLogger, startSandbox } from '@chargekit/sandbox'
import { eventTypeList } from '@chargekit/schemas'
import { chargesCreate, operationTable } from '@chargekit/schemas/operations'
import { startEventsReceiver } from './events-receiver'
import { checkFreshSandbox } from './fresh-sandbox'
import { type Exchange, recordingFetch } from './lifecycle-tour'
import { checkThroughProxy } from './validating-proxy'

const root = fileURLToPath(new URL('../../', import.meta.url))
const documentPath = `${root}docs/openapi.json`
const generatedClient = `${root}scripts/contract/generated-client/`
const bin = (name: string) => `${root}node_modules/.bin/${name}`

const results: { name: string; ok: boolean; detail: string }[] = []

/** What the check reads of the generated client's payment (its own types stay its own). */
interface GeneratedClient {
  payAndRefund(merchant: {
    baseUrl: string
    accountId: string
    privateKey: string
    eventsUrl: string
  }): Promise<{
    charge: { id: string }
    instrument: { status: string }
    payment: { status: string }
    refund: { amount: number; status: string }
    refunded: { refunded_amount: number }
    missing: unknown
  }>
}

async function check(name: string, run: () => Promise<string>): Promise<void> {
  const started = performance.now()
  try {
    const detail = await run()
    results.push({ name, ok: true, detail })
    console.log(`✓ ${name} (${Math.round(performance.now() - started)} ms): ${detail}`)
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    results.push({ name, ok: false, detail })
    console.log(`✗ ${name}: ${detail}`)
  }
}

// No telemetry, no update check: the check runs offline.
const quietTools = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
}

function run(command: string, args: string[], cwd = root): string {
  return execFileSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: quietTools,
  })
}

await check('a fresh chargekit-sandbox: /openapi.json, and /docs in Chromium', checkFreshSandbox)

await check('Redocly CLI lint (recommended-strict)', async () => {
  const lint = spawnSync(bin('redocly'), ['lint', documentPath, '--format', 'stylish'], {
    cwd: root,
    encoding: 'utf8',
    env: quietTools,
  })
  const output = `${lint.stdout}${lint.stderr}`
  if (lint.status !== 0) throw new Error(output)
  const ignored = /(\d+) problems? (?:is|are) explicitly ignored/.exec(output)?.[1] ?? '0'
  return `0 errors, 0 warnings (${ignored} accepted in .redocly.lint-ignore.yaml)`
})

await check('Prism validating proxy, lifecycle tour', async () => {
  const tour = await checkThroughProxy(documentPath)
  const called = new Set(tour.exchanges.map((exchange) => exchange.operation))
  const uncalled = operationTable.map((operation) => operation.id).filter((id) => !called.has(id))
  const missingTypes = eventTypeList.filter((type) => !tour.eventTypes.has(type))
  const answers = tour.violations.filter((violation) => violation.side === 'response')
  const requests = tour.violations.filter((violation) => violation.side === 'request')
  const refused = tour.exchanges.filter((exchange) => exchange.status === 400)
  const problems = [
    ...(uncalled.length > 0 ? [`operations never called: ${uncalled.join(', ')}`] : []),
    ...(missingTypes.length > 0 ? [`event types never seen: ${missingTypes.join(', ')}`] : []),
    ...answers.map((violation) => `${violation.request} ${violation.status}: ${violation.message}`),
    // A request the document refuses must be one the service refuses, and the other way round.
    ...requests
      .filter((violation) => violation.status !== 400)
      .map((violation) => `${violation.request} accepted although ${violation.message}`),
    ...refused
      .filter((exchange) => !requests.some((violation) => violation.request === describe(exchange)))
      .map((exchange) => `${describe(exchange)} refused although the document allows it`),
  ]
  if (problems.length > 0) throw new Error(problems.join('\n  '))
  return `${tour.exchanges.length} exchanges, ${called.size} operations, ${tour.eventTypes.size} event types, ${answers.length} answer mismatches, ${requests.length} request mismatches (all in the ${refused.length} requests sent invalid on purpose, each answered 400)`
})

await check('Prism validating proxy, a deliberately broken answer', async () => {
  const broken = await checkThroughProxy(documentPath, {
    // Test-only: the charge's amount as a string on its way to Prism.
    corrupt: (_path, body) =>
      typeof body === 'object' && body !== null && 'charge_type' in body
        ? { ...body, amount: String((body as Record<string, unknown>).amount) }
        : body,
    drive: async (target) => {
      const exchanges: Exchange[] = []
      await recordingFetch(exchanges)(`${target.baseUrl}${chargesCreate.path}`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${btoa(`${target.account.id}:${target.account.privateKey}`)}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          charge_type: 'card_onetime',
          amount: 12,
          currency: 'EUR',
          events_url: target.eventsUrl,
        }),
      })
      return { exchanges, eventTypes: new Set() }
    },
  })
  const found = broken.violations.filter((violation) => violation.side === 'response')
  if (found.length === 0) throw new Error('Prism reported no mismatch for a broken answer')
  return `reported: ${found.map((violation) => violation.message).join('; ')}`
})

await check('openapi-typescript + openapi-fetch client, tsc --strict and a payment', async () => {
  // Run where no redocly.yaml is: the generator applies the one it finds as its own lint.
  run(bin('openapi-typescript'), [documentPath, '-o', 'openapi.d.ts'], generatedClient)
  run(bin('tsc'), ['-p', `${generatedClient}tsconfig.json`])
  // Imported by a path made at run time: the root type check must not follow it, since the types
  // it needs exist only once generated above (it was checked on its own, under --strict).
  const { payAndRefund }: GeneratedClient = await import(`${generatedClient}pay.ts`)
  const receiver = await startEventsReceiver()
  const sandbox = await startSandbox({ port: 0, logger: quietLogger })
  try {
    const [account] = sandbox.accounts
    if (account === undefined) throw new Error('the sandbox has no account')
    const paid = await payAndRefund({
      baseUrl: sandbox.url,
      accountId: account.id,
      privateKey: account.privateKey,
      eventsUrl: receiver.url,
    })
    if (paid.refunded.refunded_amount !== 10 || paid.refund.status !== 'success') {
      throw new Error(`the refund did not go through: ${JSON.stringify(paid.refunded)}`)
    }
    if (paid.missing === undefined) throw new Error('an unknown charge was found')
    return `charge ${paid.charge.id} → instrument ${paid.instrument.status} → payment ${paid.payment.status} → refund ${paid.refund.amount} ${paid.refund.status}`
  } finally {
    await sandbox.close()
    await receiver.close()
  }
})

function describe(exchange: Exchange): string {
  return `${exchange.method} ${exchange.url}`
}

const failed = results.filter((result) => !result.ok).length
console.log(`\ncontract: ${results.length - failed} passed, ${failed} failed`)
process.exitCode = failed > 0 ? 1 : 0
