import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'

/** What the proxy does with one request that a queued fault matched. */
export type Fault =
  /** Answer itself; the request never reaches the sandbox. */
  | { kind: 'respond'; status: number; headers?: Record<string, string>; body?: string }
  /** Close the connection at once; the request never reaches the sandbox. */
  | { kind: 'reset-before' }
  /** Forward, let the sandbox answer (and commit), then close the connection: the answer is lost. */
  | { kind: 'reset-after' }
  /** Forward, send the status line and half the body, then close the connection. */
  | { kind: 'truncate' }
  /** Hold the request until `release` settles, then forward (the caller may have given up). */
  | { kind: 'hold'; release: Promise<unknown> }
  /** Never answer. */
  | { kind: 'hang' }

export interface SeenRequest {
  method: string
  /** Path and query, as sent. */
  url: string
  headers: IncomingHttpHeaders
  body: string
  /** The fault applied to it, or undefined when it was forwarded untouched. */
  fault: Fault['kind'] | undefined
  /** Settles once the proxy is done with it: forwarded and answered, or dropped. */
  done: Promise<void>
}

export interface FaultProxy {
  /** Origin to use as the client's `baseUrl`. */
  url: string
  /** Every request that reached the proxy, in arrival order. */
  requests: SeenRequest[]
  /** Queues faults for the next requests whose method and path (without query) match. */
  inject(match: { method: string; path: string | RegExp }, ...faults: Fault[]): void
  /** How many connections held by a `hang` fault the client closed itself. */
  hungConnectionsClosed(): number
  close(): Promise<void>
}

interface Rule {
  method: string
  path: string | RegExp
  faults: Fault[]
}

/**
 * A small HTTP proxy on loopback in front of the sandbox that can break individual requests in
 * the ways networks do, so retries and idempotency are tested against the real service.
 */
export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream)
  const agent = new Agent({ keepAlive: true })
  const rules: Rule[] = []
  const requests: SeenRequest[] = []
  const hanging = new Set<ServerResponse>()
  let hungClosed = 0

  const server = createServer(async (incoming, outgoing) => {
    const body = await readBody(incoming).catch(() => undefined)
    // Cut off before its body was in (the client gave up, or the proxy closed): nothing to answer.
    if (body === undefined) return
    const fault = takeFault(rules, incoming)
    let finish = () => {}
    requests.push({
      method: incoming.method ?? 'GET',
      url: incoming.url ?? '/',
      headers: incoming.headers,
      body,
      fault: fault?.kind,
      done: new Promise<void>((resolve) => {
        finish = resolve
      }),
    })
    try {
      await handle(incoming, outgoing, body, fault)
    } finally {
      finish()
    }
  })

  async function handle(
    incoming: IncomingMessage,
    outgoing: ServerResponse,
    body: string,
    fault: Fault | undefined,
  ) {
    switch (fault?.kind) {
      case 'respond':
        outgoing.writeHead(fault.status, fault.headers ?? {})
        outgoing.end(fault.body ?? '')
        return
      case 'reset-before':
        incoming.socket.destroy()
        return
      case 'hang':
        hanging.add(outgoing)
        incoming.socket.once('close', () => {
          if (hanging.delete(outgoing)) hungClosed += 1
        })
        return
      case 'hold':
        await fault.release
        break
    }
    let answer: Upstream
    try {
      answer = await forward(target, agent, incoming, body)
    } catch {
      if (!outgoing.headersSent) outgoing.writeHead(502).end()
      return
    }
    if (fault?.kind === 'reset-after') {
      incoming.socket.destroy()
      return
    }
    if (incoming.socket.destroyed) return
    outgoing.writeHead(answer.status, answer.headers)
    if (fault?.kind === 'truncate') {
      outgoing.flushHeaders()
      outgoing.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)))
      setTimeout(() => incoming.socket.destroy(), 20)
      return
    }
    outgoing.end(answer.body)
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    inject(match, ...faults) {
      rules.push({ method: match.method, path: match.path, faults })
    },
    hungConnectionsClosed: () => hungClosed,
    close: () =>
      new Promise<void>((resolve) => {
        const held = [...hanging]
        hanging.clear()
        for (const response of held) response.destroy()
        agent.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function takeFault(rules: Rule[], incoming: IncomingMessage): Fault | undefined {
  const path = (incoming.url ?? '/').split('?')[0] ?? '/'
  const rule = rules.find(
    (candidate) =>
      candidate.faults.length > 0 &&
      candidate.method === incoming.method &&
      (typeof candidate.path === 'string' ? candidate.path === path : candidate.path.test(path)),
  )
  return rule?.faults.shift()
}

function readBody(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    incoming.on('error', reject)
  })
}

interface Upstream {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

function forward(
  target: URL,
  agent: Agent,
  incoming: IncomingMessage,
  body: string,
): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const headers = { ...incoming.headers, host: target.host }
    delete headers.connection
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers,
        agent,
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => {
          const responseHeaders = { ...response.headers }
          // The body is re-sent whole, so the upstream framing does not apply any more.
          delete responseHeaders['transfer-encoding']
          delete responseHeaders.connection
          resolve({
            status: response.statusCode ?? 502,
            headers: responseHeaders,
            body: Buffer.concat(chunks),
          })
        })
        response.on('error', reject)
      },
    )
    upstream.on('error', reject)
    upstream.end(body)
  })
}
