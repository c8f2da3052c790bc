import { deliveryQueryParameters } from '../delivery'
import { eventTypeList } from '../event-types'
import { type JsonSchema, ref } from './components'
import type { RecordedExamples } from './examples'

/**
 * The delivery of an event to the charge's `events_url`, as OpenAPI's `webhooks` describe a
 * request the service sends: the compact form as the body, the event's id and type in the
 * query too, and the Standard Webhooks headers when a signing secret is configured.
 */
export function deliveryWebhook(examples: RecordedExamples): Record<string, JsonSchema> {
  const signature = (name: string, description: string) => ({
    name,
    in: 'header',
    required: false,
    description: `${description} Only when a signing secret is configured (Standard Webhooks).`,
    schema: { type: 'string' },
  })
  return {
    'event-delivery': {
      post: {
        operationId: 'events.delivery',
        summary: 'An event, delivered to the charge’s events_url',
        description: [
          'Sent for every event of a charge that has an `events_url`, each time the transaction progresses. Deliveries are at least once and may arrive out of order; the event id never changes across retries.',
          'Answer any 2xx within 10 s. Anything else (a redirect included) is a failure, retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after the event.',
          'A delivery is a claim: fetch the event (`events.retrieve`) with your own credentials before acting on it. An id that does not exist, or whose type differs, is forged.',
        ].join('\n\n'),
        security: [],
        parameters: [
          {
            name: deliveryQueryParameters.id,
            in: 'query',
            required: true,
            description: 'The event id, as in the body.',
            schema: { type: 'string' },
          },
          {
            name: deliveryQueryParameters.type,
            in: 'query',
            required: true,
            description: 'The event type, as in the body.',
            schema: { type: 'string', enum: eventTypeList },
          },
          signature('webhook-id', 'The event id.'),
          signature('webhook-timestamp', 'Seconds since the epoch when the attempt was signed.'),
          signature(
            'webhook-signature',
            '`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the secret.',
          ),
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: ref('CompactEvent'),
              examples: Object.fromEntries(
                Object.entries(examples.deliveries).map(([type, value]) => [
                  type.replace('.', '-'),
                  { summary: type, value },
                ]),
              ),
            },
          },
        },
        responses: {
          '2XX': { description: 'Delivered.' },
          default: { description: 'Not delivered: the attempt is retried on the schedule.' },
        },
      },
    },
  }
}
