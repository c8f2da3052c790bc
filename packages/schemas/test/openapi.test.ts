import { errorCodes } from '@chargekit/errors'
import { describe, expect, it } from 'vitest'
import {
  endpointRows,
  endpointRowsOf,
  isOpenApiFileCurrent,
} from '../../../scripts/contract/contract-files'
import { eventTypeList } from '../src/event-types'
import { createOpenApiDocument } from '../src/openapi'
import { operationTable } from '../src/operations'

// biome-ignore lint/suspicious/noExplicitAny: the document is plain JSON, read field by field
const document: any = createOpenApiDocument({ serverUrl: 'http://127.0.0.1:9999' })
const operationsOf = (path: string) => document.paths[path]

describe('the OpenAPI document', () => {
  it('is committed as generated: pnpm contract:generate rewrites both files', () => {
    expect(isOpenApiFileCurrent(), 'docs/openapi.json is stale').toBe(true)
    expect(endpointRowsOf(), 'the endpoint list of docs/service/resources.md').toEqual(
      endpointRows(),
    )
  })

  it('has every operation of the table at its path, with its success status', () => {
    for (const operation of operationTable) {
      const item = operationsOf(operation.path)?.[operation.method.toLowerCase()]
      expect(item?.operationId, operation.id).toBe(operation.id)
      expect(item.responses[String(operation.status)], operation.id).toBeDefined()
    }
    expect(document.servers).toEqual([
      { url: 'http://127.0.0.1:9999', description: 'chargekit-sandbox' },
    ])
  })

  it('states who may call what: the private key, the public key too, or no credentials', () => {
    expect(document.components.securitySchemes).toMatchObject({
      privateKey: { type: 'http', scheme: 'basic' },
      publicKey: { type: 'http', scheme: 'basic' },
    })
    expect(document.security).toEqual([{ privateKey: [] }])
    expect(operationsOf('/v2/charges/types').get.security).toEqual([
      { privateKey: [] },
      { publicKey: [] },
    ])
    expect(operationsOf('/v2/instruments/{id}/redirect').get.security).toEqual([])
    expect(operationsOf('/v2/payments').post.security).toBeUndefined()
  })

  it('gives each error answer its body and codes', () => {
    const capture = operationsOf('/v2/payments').post.responses
    expect(capture['402']).toEqual({ $ref: '#/components/responses/Declined' })
    expect(capture['409'].content['application/json'].schema.allOf[1].properties).toEqual({
      failure_code: {
        enum: ['05.04.0002', '05.04.0001', '01.02.0000', '03.04.0000', '02.04.0000'],
      },
    })
    expect(document.components.responses.Unauthorized.content['application/json'].schema).toEqual({
      allOf: [
        { $ref: '#/components/schemas/ApiErrorBody' },
        { properties: { failure_code: { enum: ['05.03.0002'] } }, required: ['failure_code'] },
      ],
    })
    expect(document.components.schemas.FailureCode.enum).toEqual(
      errorCodes.map((info) => info.code),
    )
    // The public key may create a charge, not confirm one.
    expect(operationsOf('/v2/charges').post.responses['403'].description).toContain('confirmed')
  })

  it('tags the test helpers as sandbox-only', () => {
    const settle = operationsOf('/v2/test/settlements').post
    expect(settle).toMatchObject({ tags: ['Test helpers'], 'x-sandbox-only': true })
    expect(
      document.tags.find((tag: { name: string }) => tag.name === 'Test helpers'),
    ).toMatchObject({ 'x-sandbox-only': true })
    expect(operationsOf('/v2/charges').post['x-sandbox-only']).toBeUndefined()
  })

  it('describes the delivery as a webhook: query, compact body, Standard Webhooks headers', () => {
    const delivery = document.webhooks['event-delivery'].post
    expect(delivery.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
      'event',
      'event_type',
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ])
    expect(delivery.parameters[1].schema.enum).toEqual([...eventTypeList])
    expect(delivery.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CompactEvent',
    })
  })

  it('says what it cannot state about leniency in x-chargekit-leniencies', () => {
    const codes = document['x-chargekit-leniencies'].map((entry: { code: string }) => entry.code)
    expect(codes).toEqual(expect.arrayContaining(['trailing_slash', 'numeric_string', 'form_body']))
    // Form bodies it can state: every request body also takes form fields.
    expect(Object.keys(operationsOf('/v2/payments').post.requestBody.content)).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ])
  })

  it('reads list queries as the service does: repeated types, metadata as a deep object', () => {
    const parameters = operationsOf('/v2/events').get.parameters
    const byName = Object.fromEntries(
      parameters.map((parameter: { name: string }) => [parameter.name, parameter]),
    )
    expect(byName.type).toMatchObject({ style: 'form', explode: true, schema: { type: 'array' } })
    expect(byName.metadata).toMatchObject({ style: 'deepObject', explode: true })
    expect(byName.dismissed.schema).toEqual({ type: 'boolean' })
    expect(byName.per_page.schema).toMatchObject({ maximum: 100, default: 30 })
  })

  it('describes every field of every request: its body fields and its query parameters', () => {
    const undescribed: string[] = []
    const checkProperties = (where: string, schema: JsonSchema) => {
      for (const [field, property] of Object.entries(schema.properties ?? {})) {
        if (typeof property.description !== 'string') undescribed.push(`${where}.${field}`)
        checkProperties(`${where}.${field}`, property)
      }
    }
    const bodies = new Set<string>([
      'CardInstrumentRequest',
      'MbwayInstrumentRequest',
      'ChargeOnlyInstrumentRequest',
    ])
    for (const operation of operationTable) {
      if ('body' in operation && operation.body !== 'CreateInstrumentRequest') {
        bodies.add(operation.body)
      }
      const item = operationsOf(operation.path)[operation.method.toLowerCase()]
      for (const parameter of item.parameters ?? []) {
        if (parameter.in === 'query' && typeof parameter.description !== 'string') {
          undescribed.push(`${operation.id}?${parameter.name}`)
        }
      }
    }
    for (const body of bodies) checkProperties(body, document.components.schemas[body])
    expect(undescribed).toEqual([])
    expect(document.components.schemas.CardInstrumentRequest.properties.expiration_month).toEqual(
      expect.objectContaining({
        title: 'Expiry month',
        description: "The card's expiry month, a number from 1 to 12",
      }),
    )
  })
})

interface JsonSchema {
  description?: unknown
  properties?: Record<string, JsonSchema>
}
