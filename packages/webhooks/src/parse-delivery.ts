import {
  type CompactEvent,
  compactEventSchema,
  deliveredEventIdSchema,
  deliveredEventTypeSchema,
  deliveryQueryParameters,
} from '@chargekit/schemas'
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
  /** The whole JSON body, which may be the event's compact form. */
  json?: Record<string, unknown>
}

const EXPECTED =
  'Send the event id and type as a JSON body {"id":"ev_…","type":"payment.success"}, a form body id=…&type=…, or query parameters event=…&event_type=… (or id=…&type=…).'

/**
 * Reads the claimed `{ id, type }` of a delivery. Sources, first one carrying an id or a type
 * wins: the body (JSON or form-encoded), then the query's `event`/`event_type` (what the service
 * appends), then the query's `id`/`type`. A JSON body that is the event's compact form (what the
 * service sends) is kept as `compact`; one that is not still names the event. Nothing here is
 * trusted yet: the event is fetched by id afterwards and compared.
 */
export function parseDelivery({ url, contentType, body }: DeliveryInput): DeliveryRef {
  const mediaType = body.trim() === '' ? undefined : mediaTypeOf(contentType)
  const fromBody = mediaType === undefined ? undefined : readBody(body, mediaType)
  if (fromBody !== undefined && namesEvent(fromBody)) return validate(fromBody)
  // Parsed only when the body did not name the event: the service's body always does.
  const query = queryOf(url)
  const fromQuery = [
    {
      source: 'query parameter',
      id: query.get(deliveryQueryParameters.id),
      type: query.get(deliveryQueryParameters.type),
    },
    { source: 'query parameter', id: query.get('id'), type: query.get('type') },
  ].find(namesEvent)
  if (fromQuery !== undefined) return validate(fromQuery)
  // A body in a format we do not read is only fatal when the query does not name the event
  // either; the service always sends both, so its deliveries stay readable whatever the body.
  if (mediaType !== undefined && fromBody === undefined) {
    throw invalid(
      `Unsupported content-type "${mediaType}", and no event/event_type or id/type query parameters. ${EXPECTED}`,
    )
  }
  throw invalid(`The delivery names no event. ${EXPECTED}`)
}

/** `application/json; charset=utf-8` → `application/json`. */
function mediaTypeOf(contentType = ''): string {
  const end = contentType.indexOf(';')
  return (end === -1 ? contentType : contentType.slice(0, end)).trim().toLowerCase()
}

/** The fields a supported body names, or undefined for a media type this does not read. */
function readBody(body: string, mediaType: string): Candidate | undefined {
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
  return undefined
}

/** The query of a full or path-only URL, without parsing the rest of it. */
function queryOf(url: string): URLSearchParams {
  const start = url.indexOf('?')
  if (start === -1) return new URLSearchParams()
  const fragment = url.indexOf('#', start)
  return new URLSearchParams(url.slice(start + 1, fragment === -1 ? undefined : fragment))
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
  return { source: 'JSON field', id: record.id, type: record.type, json: record }
}

function validate({ source, json, ...named }: Candidate): DeliveryRef {
  const id = deliveredEventIdSchema.safeParse(named.id)
  const type = deliveredEventTypeSchema.safeParse(named.type)
  if (!id.success) {
    throw invalid(
      `${source} "id" must be an event id: 1-255 letters, digits, "_", "-", "." or ":", starting with a letter or digit; got ${describe(named.id)}. ${EXPECTED}`,
    )
  }
  if (!type.success) {
    throw invalid(
      `${source} "type" must be an event type such as "payment.success"; got ${describe(named.type)}. ${EXPECTED}`,
    )
  }
  // A body without the compact form's parent objects (one naming only `{ id, type }`) is not
  // one: no schema parse, whose failure would build issues only to drop them.
  // Typed as the app's registered metadata (its promise about its charges): the schema checks
  // the service's shape, which allows any metadata.
  const compact = mayBeCompact(json)
    ? (compactEventSchema.safeParse(json).data as CompactEvent | undefined)
    : undefined
  const ref = { id: id.data, type: type.data }
  return compact === undefined ? ref : { ...ref, compact }
}

function mayBeCompact(json: Record<string, unknown> | undefined): boolean {
  return typeof json?.charge === 'object' && typeof json.instrument === 'object'
}

function namesEvent(candidate: Candidate): boolean {
  return present(candidate.id) || present(candidate.type)
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
