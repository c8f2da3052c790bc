import { type DeliveryRef, WebhooksError } from './errors'

/** What a transport hands over: the full or path-only URL, the content type and the body text. */
export interface DeliveryInput {
  url: string
  contentType: string | undefined
  body: string
}

interface Candidate {
  source: string
  id: unknown
  type: unknown
}

const EXPECTED =
  'Send the event id and type as a JSON body {"id":"ev_…","type":"payment.success"}, a form body id=…&type=…, or query parameters event=…&event_type=… (or id=…&type=…).'
// Opaque ids (DESIGN §4: `ev_…`). The charset and the alphanumeric start keep them one plain
// segment of the fetch URL's path (no `/`, no `.`/`..` that a URL parser would resolve).
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,254}$/
const TYPE_PATTERN = /^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/
const MAX_TYPE_LENGTH = 100

/**
 * Reads the claimed `{ id, type }` of a delivery. Sources, first one carrying an id or a type
 * wins: the body (JSON or form-encoded), then the query's `event`/`event_type` (what the service
 * appends, DESIGN §6), then the query's `id`/`type`. Nothing here is trusted yet: the event is
 * fetched by id afterwards and compared.
 */
export function parseDelivery(input: DeliveryInput): DeliveryRef {
  const candidates: Candidate[] = []
  if (input.body.trim() !== '') candidates.push(readBody(input.body, input.contentType))
  const query = new URL(input.url, 'http://localhost').searchParams
  candidates.push(
    { source: 'query parameter', id: query.get('event'), type: query.get('event_type') },
    { source: 'query parameter', id: query.get('id'), type: query.get('type') },
  )
  const chosen = candidates.find((candidate) => present(candidate.id) || present(candidate.type))
  if (chosen === undefined) throw invalid(`The delivery names no event. ${EXPECTED}`)
  return validate(chosen)
}

function readBody(body: string, contentType: string | undefined): Candidate {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  const json =
    mediaType === 'application/json' ||
    mediaType.endsWith('+json') ||
    // No (or a text) content type: sniff, since hand-written senders often omit it.
    ((mediaType === '' || mediaType === 'text/plain') && body.trimStart().startsWith('{'))
  if (json) return readJson(body)
  if (
    mediaType === 'application/x-www-form-urlencoded' ||
    mediaType === '' ||
    mediaType === 'text/plain'
  ) {
    const form = new URLSearchParams(body)
    return { source: 'form field', id: form.get('id'), type: form.get('type') }
  }
  throw invalid(`Unsupported content-type "${mediaType}". ${EXPECTED}`)
}

function readJson(body: string): Candidate {
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    throw invalid(`The body is not valid JSON. ${EXPECTED}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`The JSON body must be an object. ${EXPECTED}`)
  }
  const record = value as Record<string, unknown>
  return { source: 'JSON field', id: record.id, type: record.type }
}

function validate({ source, id, type }: Candidate): DeliveryRef {
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
    throw invalid(
      `${source} "id" must be an event id: 1-255 letters, digits, "_", "-", "." or ":", starting with a letter or digit; got ${describe(id)}. ${EXPECTED}`,
    )
  }
  if (typeof type !== 'string' || type.length > MAX_TYPE_LENGTH || !TYPE_PATTERN.test(type)) {
    throw invalid(
      `${source} "type" must be an event type such as "payment.success"; got ${describe(type)}. ${EXPECTED}`,
    )
  }
  return { id, type }
}

/** An empty parameter (`?event_type=`) counts as absent, not as a bad value. */
function present(value: unknown) {
  return value !== undefined && value !== null && value !== ''
}

function describe(value: unknown): string {
  if (!present(value)) return 'nothing'
  if (typeof value !== 'string') return `a ${Array.isArray(value) ? 'list' : typeof value}`
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)
}

function invalid(message: string) {
  return new WebhooksError('invalid_delivery', message)
}
