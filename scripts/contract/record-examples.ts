// pnpm contract:record: runs the lifecycle tour against a fresh sandbox and keeps, for every
// operation, the first request and answer of each status it got, and one delivered body per
// event type: the OpenAPI document's examples are real answers, not hand-written ones.
import { writeFileSync } from 'node:fs'
import { quietLogger, startSandbox } from '@chargekit/sandbox'
import { pathParameters, pathPattern } from '@chargekit/schemas/operations'
import { examplesFile } from './contract-files'
import { startEventsReceiver } from './events-receiver'
import { type Exchange, operationOf, runLifecycleTour } from './lifecycle-tour'

const output = examplesFile
/** Lists keep two items: an example shows the shape, not the whole page. */
const listItems = 2

interface Recorded {
  parameters?: Record<string, string>
  request?: unknown
  responses: Record<string, unknown>
}

function shortened(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('collection' in body)) return body
  const page = body as { collection: unknown[] }
  return { ...page, collection: page.collection.slice(0, listItems) }
}

/** The path parameters of `url` by the names in `path`. */
function parametersOf(path: string, url: string): Record<string, string> {
  const values = pathPattern(path, '([^/]+)').exec(new URL(url, 'http://x').pathname)
  return Object.fromEntries(
    pathParameters(path).map((name, index) => [
      name,
      decodeURIComponent(values?.[index + 1] ?? ''),
    ]),
  )
}

function record(exchanges: readonly Exchange[]): Record<string, Recorded> {
  const byOperation: Record<string, Recorded> = {}
  for (const exchange of exchanges) {
    const operation = operationOf(exchange.method, new URL(exchange.url, 'http://x').pathname)
    if (operation === undefined || operation.answer === 'page' || operation.answer === 'document') {
      continue
    }
    byOperation[operation.id] ??= { responses: {} }
    const recorded = byOperation[operation.id] as Recorded
    const status = String(exchange.status)
    if (status in recorded.responses) continue
    recorded.responses[status] = shortened(exchange.responseBody)
    if (exchange.status < 300) {
      const parameters = parametersOf(operation.path, exchange.url)
      if (Object.keys(parameters).length > 0) recorded.parameters = parameters
      if (operation.body !== undefined && exchange.requestBody !== undefined) {
        recorded.request = exchange.requestBody
      }
    }
  }
  return byOperation
}

const receiver = await startEventsReceiver()
const sandbox = await startSandbox({ port: 0, timeScale: 0.001, logger: quietLogger })
try {
  const [account] = sandbox.accounts
  if (account === undefined) throw new Error('the sandbox has no account')
  const { exchanges } = await runLifecycleTour({
    baseUrl: sandbox.url,
    account: { id: account.id, privateKey: account.privateKey, publicKey: account.publicKey },
    eventsUrl: receiver.url,
  })
  const examples = { operations: record(exchanges), deliveries: receiver.deliveries }
  writeFileSync(output, `${JSON.stringify(examples, null, 2)}\n`)
  console.log(
    `Recorded ${Object.keys(examples.operations).length} operations and ${Object.keys(examples.deliveries).length} delivery types in ${output.pathname}`,
  )
} finally {
  await sandbox.close()
  await receiver.close()
}
