// Prism in proxy mode between the tour's clients and a sandbox: it validates every request and
// every answer against the OpenAPI document and reports each mismatch in the answer's
// `sl-violations` header. Optionally a corrupting hop between Prism and the sandbox breaks one
// kind of answer on purpose, to show that the check can fail.
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { quietLogger, startSandbox } from '@chargekit/sandbox'
import { freePort } from '../free-port'
import { startEventsReceiver } from './events-receiver'
import { type Exchange, runLifecycleTour, type TourResult, type TourTarget } from './lifecycle-tour'

export interface Violation {
  operation: string | undefined
  request: string
  status: number
  /** Whether the request broke the contract, or the answer. */
  side: 'request' | 'response'
  message: string
}

export interface ProxyCheck extends TourResult {
  violations: Violation[]
}

export interface ProxyCheckOptions {
  /** What runs through the proxy. Default: the whole lifecycle tour. */
  drive?: (target: TourTarget) => Promise<TourResult>
  /**
   * Rewrites the JSON body of the sandbox's answers on their way to Prism (test-only: the check
   * must then report violations).
   */
  corrupt?: (path: string, body: unknown) => unknown
}

/** Runs the lifecycle tour (or `drive`) through Prism against a fresh sandbox. */
export async function checkThroughProxy(
  documentPath: string,
  { drive = runLifecycleTour, corrupt }: ProxyCheckOptions = {},
): Promise<ProxyCheck> {
  const receiver = await startEventsReceiver()
  const sandbox = await startSandbox({ port: 0, timeScale: 0.001, logger: quietLogger })
  let hop: Server | undefined
  let prism: ChildProcess | undefined
  try {
    let upstream = sandbox.url
    if (corrupt !== undefined) {
      hop = await startCorruptingHop(sandbox.url, corrupt)
      upstream = `http://127.0.0.1:${(hop.address() as AddressInfo).port}`
    }
    const port = await freePort()
    prism = spawn(
      process.execPath,
      [
        prismBin(),
        'proxy',
        documentPath,
        upstream,
        '--port',
        String(port),
        '--host',
        '127.0.0.1',
        '--errors',
        'false',
        '--verboseLevel',
        'error',
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    )
    const prismUrl = `http://127.0.0.1:${port}`
    await waitForListening(prismUrl, prism)
    const [account] = sandbox.accounts
    if (account === undefined) throw new Error('the sandbox has no account')
    const result = await drive({
      baseUrl: prismUrl,
      account: { id: account.id, privateKey: account.privateKey, publicKey: account.publicKey },
      eventsUrl: receiver.url,
    })
    return { ...result, violations: result.exchanges.flatMap(violationsOf) }
  } finally {
    prism?.kill()
    hop?.closeAllConnections()
    hop?.close()
    await sandbox.close()
    await receiver.close()
  }
}

/** What Prism found wrong with one exchange, from its `sl-violations` header. */
function violationsOf(exchange: Exchange): Violation[] {
  const header = exchange.headers.get('sl-violations')
  if (header === null) return []
  const found = JSON.parse(header) as { message: string; location?: string[] }[]
  return found.map((violation) => ({
    operation: exchange.operation,
    request: `${exchange.method} ${exchange.url}`,
    status: exchange.status,
    side: violation.location?.[0] === 'request' ? 'request' : 'response',
    message: `${(violation.location ?? []).join('.')}: ${violation.message}`,
  }))
}

function prismBin(): string {
  return new URL('../../node_modules/@stoplight/prism-cli/dist/index.js', import.meta.url).pathname
}

async function waitForListening(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Prism exited with ${child.exitCode}`)
    try {
      await fetch(`${url}/openapi.json`)
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  throw new Error('Prism did not start listening within 60 s')
}

/** An HTTP hop that passes everything on and rewrites JSON answers with `corrupt`. */
async function startCorruptingHop(
  target: string,
  corrupt: (path: string, body: unknown) => unknown,
): Promise<Server> {
  const upstream = new URL(target)
  const server = createServer((request, response) => {
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => {
          let body = Buffer.concat(chunks)
          if (String(answer.headers['content-type']).startsWith('application/json')) {
            const changed = corrupt(request.url ?? '', JSON.parse(body.toString('utf8')))
            body = Buffer.from(JSON.stringify(changed))
          }
          const headers = { ...answer.headers, 'content-length': String(body.length) }
          response.writeHead(answer.statusCode ?? 502, headers).end(body)
        })
      },
    )
    request.pipe(forward)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}
