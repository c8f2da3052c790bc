import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

export interface TestServer {
  url: string
  close(): Promise<void>
}

/** A real node:http server on 127.0.0.1, port 0. */
export function startNodeServer(listener: RequestListener): Promise<TestServer> {
  return listen(createServer(listener))
}

/** Listens on 127.0.0.1, port 0; `close` drops open keep-alive connections too. */
export async function listen(server: Server): Promise<TestServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export const signingSecret = `whsec_${btoa('webhooks package test signing key')}`

/** Standard Webhooks headers made by the reference implementation. */
export function signatureHeaders(
  body: string,
  id: string,
  secret = signingSecret,
  at = new Date(),
) {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  }
}

/** What the receiver answers: `received`/`status` on success, `error` otherwise. */
export interface AnswerBody {
  received?: true
  status?: string
  id?: string
  type?: string
  error: { code: string; message: string }
}

export interface PostOptions {
  /** Appends the `event` and `event_type` query parameters too, as the service does. */
  query?: boolean
  /** `json` (default), `form`, or `none` (query only). */
  as?: 'json' | 'form' | 'none'
  signed?: boolean | string
}

/** POSTs a delivery the way the service does; returns status and parsed JSON body. */
export async function postDelivery(
  url: string,
  delivery: { id: string; type: string },
  options: PostOptions = {},
) {
  const target = new URL(url)
  if (options.query || options.as === 'none') {
    target.searchParams.set('event', delivery.id)
    target.searchParams.set('event_type', delivery.type)
  }
  const as = options.as ?? 'json'
  const body =
    as === 'json'
      ? JSON.stringify(delivery)
      : as === 'form'
        ? new URLSearchParams(delivery).toString()
        : ''
  const headers: Record<string, string> = {}
  if (as !== 'none') {
    headers['content-type'] =
      as === 'json' ? 'application/json' : 'application/x-www-form-urlencoded'
  }
  if (options.signed) {
    const secret = typeof options.signed === 'string' ? options.signed : signingSecret
    Object.assign(headers, signatureHeaders(body, delivery.id, secret))
  }
  const response = await fetch(target, {
    method: 'POST',
    headers,
    ...(as === 'none' ? {} : { body }),
  })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : (JSON.parse(text) as AnswerBody),
  }
}
