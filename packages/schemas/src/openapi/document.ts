import { idempotencyKeyRule } from '../idempotency-key'
import { type Operation, pathParameters, type SchemaName, takesIdempotencyKey } from '../operation'
import { type OperationId, operationTable } from '../operations'
import { componentSchemas, type JsonSchema, listName, queryParameters, ref } from './components'
import { errorComponents, errorResponses } from './error-responses'
import { type RecordedExamples, recordedExamples } from './examples'
import { leniencies } from './leniencies'
import { operationDocs } from './operation-docs'
import { deliveryWebhook } from './webhooks'

export interface OpenApiOptions {
  /** The origin the API answers at, such as the sandbox's `url`. Default: the CLI's default. */
  serverUrl?: string
  /** What the server is, for people. */
  serverDescription?: string
}

/** An OpenAPI 3.1 document as plain JSON. */
export type OpenApiDocument = Record<string, unknown> & { openapi: '3.1.0' }

const tags = [
  ['Charges', 'A transaction starts with a charge.'],
  ['Instruments', "The customer's payment authorization, created from a charge."],
  ['Payments', 'Captures of an authorized instrument.'],
  ['Refunds', 'Money sent back from a successful payment.'],
  ['Reversals', 'Voided authorizations.'],
  ['Disputes', "Customers' disputes of payments."],
  ['Settlements', 'Batches that settled payments and refunds.'],
  ['Events', 'Every step of a transaction, delivered to `events_url` and searchable here.'],
  [
    'Test helpers',
    'Only the sandbox has these: they do what the payment provider and the customer would.',
  ],
  ['Contract', 'This document.'],
] as const

const tagOf: Record<string, (typeof tags)[number][0]> = {
  charges: 'Charges',
  instruments: 'Instruments',
  payments: 'Payments',
  refunds: 'Refunds',
  reversals: 'Reversals',
  disputes: 'Disputes',
  settlements: 'Settlements',
  events: 'Events',
  testHelpers: 'Test helpers',
  openapi: 'Contract',
}

/**
 * The OpenAPI 3.1 document of the service, generated from the operation table and its zod
 * schemas: every path, its parameters, bodies and answers, the error answers with their codes,
 * both keys as security schemes, the event delivery as a webhook, and answers recorded from the
 * sandbox as examples.
 */
export function createOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const examples = recordedExamples
  const errors = errorComponents()
  const paths: Record<string, Record<string, JsonSchema>> = {}
  for (const operation of operationTable) {
    paths[operation.path] ??= {}
    ;(paths[operation.path] as Record<string, JsonSchema>)[operation.method.toLowerCase()] =
      operationObject(operation, examples, errors.responses)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payment lifecycle service',
      version: 'v2',
      summary: 'Charges, instruments, payments, refunds and their lifecycle events.',
      description: [
        'The payment lifecycle service as chargekit implements it and its sandbox serves it.',
        'Amounts are JSON numbers in major units, with at most the currency’s minor digits. Ids are opaque strings with a type prefix (`ch_`, `in_`, `pa_`, `re_`, `rv_`, `dp_`, `st_`, `ev_`). Lists answer one page, newest first.',
        'Every write takes an optional `Idempotency-Key`. Error bodies are JSON with `message`, and `failure_code` (`XX.YY.ZZZZ`) with its `failure_description` where the catalogue has one.',
        'What the service accepts although a careful client never sends it is listed in `x-chargekit-leniencies`; the sandbox reports each such request with an integration warning.',
      ].join('\n\n'),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: options.serverUrl ?? 'http://127.0.0.1:4010',
        description:
          options.serverDescription ??
          (options.serverUrl === undefined
            ? 'chargekit-sandbox on its default port'
            : 'chargekit-sandbox'),
      },
    ],
    security: [{ privateKey: [] }],
    tags: tags.map(([name, description]) => ({
      name,
      description,
      ...(name === 'Test helpers' ? { 'x-sandbox-only': true } : {}),
    })),
    paths,
    webhooks: deliveryWebhook(examples),
    components: {
      schemas: { ...componentSchemas(), ...errors.schemas },
      responses: errors.responses,
      securitySchemes: {
        privateKey: {
          type: 'http',
          scheme: 'basic',
          description:
            "The merchant's server: the account id as user name, the private key as password. Never in a browser.",
        },
        publicKey: {
          type: 'http',
          scheme: 'basic',
          description:
            "A customer's browser: the account's public key (`pk_…`) as user name and an empty password. It may only read charge types, create charges (unconfirmed) and instruments, and read its own charges and instruments.",
        },
      },
    },
    'x-chargekit-leniencies': leniencies,
  }
}

function operationObject(
  operation: Operation,
  examples: RecordedExamples,
  sharedResponses: JsonSchema,
): JsonSchema {
  const recorded = examples.operations[operation.id]
  const parameters = [
    ...pathParameters(operation.path).map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string', minLength: 1 },
      description: `An id such as \`${operation.params?.[name] ?? ''}…\`.`,
      ...(recorded?.parameters?.[name] === undefined ? {} : { example: recorded.parameters[name] }),
    })),
    ...(operation.query === undefined ? [] : queryParameters(operation.query)),
    ...(takesIdempotencyKey(operation)
      ? [
          {
            name: 'Idempotency-Key',
            in: 'header',
            description: `Makes a retry safe: the same key and body within 24 h answer the stored answer again (\`Idempotent-Replayed: true\`). ${idempotencyKeyRule}.`,
            schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
          },
        ]
      : []),
  ]
  return {
    operationId: operation.id,
    summary: operationDocs[operation.id as OperationId].summary,
    description: describe(operation),
    tags: [tagOf[operation.id.split('.')[0] ?? ''] ?? 'Contract'],
    ...(operation.keys === 'none'
      ? { security: [] }
      : operation.keys === 'public'
        ? { security: [{ privateKey: [] }, { publicKey: [] }] }
        : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...requestBody(operation, recorded?.request),
    responses: {
      ...successResponse(operation, recorded?.responses),
      ...withExamples(errorResponses(operation), recorded?.responses, sharedResponses),
    },
    ...(operation.sandboxOnly ? { 'x-sandbox-only': true } : {}),
  }
}

/** The summary's missing half: the description, who may call, what comes back on failure. */
function describe(operation: Operation): string {
  const notes = [
    operationDocs[operation.id as OperationId].description,
    operation.keys === 'public'
      ? 'The public key may call it too, from a customer’s browser.'
      : undefined,
    operation.keys === 'none' ? 'No credentials: a browser navigates here.' : undefined,
    operation.sandboxOnly ? 'Only the sandbox has it.' : undefined,
  ]
  return notes.filter(Boolean).join('\n\n')
}

function requestBody(operation: Operation, example: unknown): JsonSchema {
  if (operation.method === 'GET') return {}
  if (operation.body === undefined) {
    return {
      requestBody: {
        description: 'None, or `{}`.',
        required: false,
        content: { 'application/json': { schema: { type: 'object' } } },
      },
    }
  }
  const schema = ref(operation.body)
  // A page's form posts form fields; the API reads JSON, and form fields as the production
  // service does (with an integration warning).
  const form = { 'application/x-www-form-urlencoded': { schema } }
  return {
    requestBody: {
      required: operation.method === 'POST',
      content:
        operation.keys === 'none'
          ? form
          : {
              'application/json': { schema, ...(example === undefined ? {} : { example }) },
              ...form,
            },
    },
  }
}

const requestIdHeader = {
  'Request-Id': {
    description: 'Identifies the request in the service’s logs.',
    schema: { type: 'string' },
  },
}

function successResponse(operation: Operation, recorded: Record<string, unknown> | undefined) {
  const status = String(operation.status)
  const { answer } = operation
  if (answer === 'nothing') {
    return { [status]: { description: 'Done: no body.', headers: answerHeaders(operation) } }
  }
  if (answer === 'page') {
    return {
      [status]: {
        description: 'An HTML page.',
        content: { 'text/html': { schema: { type: 'string' } } },
      },
      '303': {
        description:
          'Back to the shop: `Location` is the charge’s `redirect_url` with `?instrument={id}`.',
      },
      '404': {
        description: 'The link is wrong, or the verification is already finished.',
        content: { 'text/html': { schema: { type: 'string' } } },
      },
    }
  }
  const schema: JsonSchema =
    answer === 'document'
      ? { type: 'object', description: 'An OpenAPI 3.1 document.' }
      : typeof answer === 'object'
        ? ref(listName(answer.list))
        : operation.publicAnswer === undefined
          ? ref(answer)
          : { anyOf: [ref(answer), ref(operation.publicAnswer)] }
  const example = recorded?.[status]
  return {
    [status]: {
      description:
        operation.publicAnswer === undefined
          ? answerDescription(answer)
          : `${answerDescription(answer)} The public key reads the ${operation.publicAnswer}: the fields a browser needs, without the merchant’s own.`,
      headers: answerHeaders(operation),
      content: {
        'application/json': { schema, ...(example === undefined ? {} : { example }) },
      },
    },
  }
}

function answerDescription(answer: SchemaName | { list: SchemaName } | 'document'): string {
  if (answer === 'document') return 'The document.'
  if (typeof answer === 'object') return `A page of ${answer.list} objects, newest first.`
  return `The ${answer}.`
}

function answerHeaders(operation: Operation): JsonSchema {
  return {
    ...requestIdHeader,
    ...(operation.keys === 'none'
      ? {}
      : {
          'Chargekit-Integration-Warnings': {
            description:
              'What the request relied on that a careful client sends otherwise (see `x-chargekit-leniencies`), as JSON.',
            schema: { type: 'string' },
          },
        }),
    ...(takesIdempotencyKey(operation)
      ? {
          'Idempotent-Replayed': {
            description:
              '`true` when this is the stored answer to an earlier request with the same key.',
            schema: { type: 'string', enum: ['true'] },
          },
        }
      : {}),
  }
}

/** The error answers with the recorded ones as examples; a shared answer is copied to hold one. */
function withExamples(
  responses: Record<string, JsonSchema>,
  recorded: Record<string, unknown> | undefined,
  sharedResponses: JsonSchema,
): Record<string, JsonSchema> {
  if (recorded === undefined) return responses
  return Object.fromEntries(
    Object.entries(responses).map(([status, given]) => {
      const example = recorded[status]
      if (example === undefined) return [status, given]
      const response =
        typeof given.$ref === 'string'
          ? (sharedResponses[given.$ref.split('/').pop() as string] as JsonSchema)
          : given
      const content = response.content as Record<string, JsonSchema>
      const json = content['application/json'] as JsonSchema
      return [status, { ...response, content: { 'application/json': { ...json, example } } }]
    }),
  )
}
