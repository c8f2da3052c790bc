import { describe, expect, it } from 'vitest'
import * as z from 'zod/v4'
import * as fixtures from '../test/fixtures'
import {
  apiErrorBodySchema,
  chargeSchema,
  createChargeRequestSchema,
  formatZodIssues,
  listEnvelopeSchema,
  processorErrorBodySchema,
  rootIssueKey,
  SchemaValidationError,
  validationErrorBodySchema,
} from './index'

describe('error bodies', () => {
  it('parses the documented instrument-creation error body', () => {
    expect(processorErrorBodySchema.parse(fixtures.processorErrorBody)).toEqual(
      fixtures.processorErrorBody,
    )
  })

  it('requires the processor body fields and the XX.YY.ZZZZ code form', () => {
    const { failure_description: _d, ...rest } = fixtures.processorErrorBody
    const result = processorErrorBodySchema.safeParse({ ...rest, failure_code: '6.2.0' })
    expect(result.success ? {} : formatZodIssues(result.error)).toEqual({
      failure_code: ['Expected an error code of the form XX.YY.ZZZZ'],
      failure_description: ['Required: expected string'],
    })
  })

  it('parses the validation body with parameters, and only 01.01.0000', () => {
    expect(validationErrorBodySchema.parse(fixtures.validationErrorBody)).toEqual(
      fixtures.validationErrorBody,
    )
    expect(
      validationErrorBodySchema.safeParse({
        ...fixtures.validationErrorBody,
        failure_code: '02.01.0000',
      }).success,
    ).toBe(false)
  })

  it('apiErrorBodySchema takes any error body: only message is required', () => {
    expect(apiErrorBodySchema.parse({ message: 'Not found' })).toEqual({ message: 'Not found' })
    expect(apiErrorBodySchema.safeParse(fixtures.processorErrorBody).success).toBe(true)
    expect(apiErrorBodySchema.safeParse(fixtures.validationErrorBody).success).toBe(true)
    expect(apiErrorBodySchema.safeParse({ failure_code: '05.03.0002' }).success).toBe(false)
  })
})

describe('listEnvelopeSchema', () => {
  it('parses a page of items with pagination and filters', () => {
    const page = {
      collection: [fixtures.charge],
      pagination: { page: 1, per_page: 30, total: 1 },
      filters: { charge: 'ch_1' },
    }
    expect(listEnvelopeSchema(chargeSchema).parse(page)).toEqual(page)
    const bad = listEnvelopeSchema(chargeSchema).safeParse({
      ...page,
      collection: [{ ...fixtures.charge, amount: -1 }],
      pagination: { page: 0, per_page: 30, total: 1 },
    })
    expect(bad.success ? [] : Object.keys(formatZodIssues(bad.error))).toEqual([
      'collection.0.amount',
      'pagination.page',
    ])
  })
})

describe('formatZodIssues', () => {
  it('keys messages by dotted path, root problems under (root)', () => {
    const result = createChargeRequestSchema.safeParse('not an object')
    expect(result.success ? {} : formatZodIssues(result.error)).toEqual({
      [rootIssueKey]: ['Expected object, received string'],
    })
  })

  it('merges several messages for one field without repeating them', () => {
    const schema = z.object({ code: z.string().min(3).regex(/^\d+$/) })
    const result = schema.safeParse({ code: 'a' })
    expect(result.success ? {} : formatZodIssues(result.error).code).toHaveLength(2)
  })

  it('SchemaValidationError lists the first problems and counts the rest', () => {
    const result = z
      .object({ a: z.string(), b: z.string(), c: z.string(), d: z.string(), e: z.string() })
      .safeParse({})
    if (result.success) throw new Error('expected a failure')
    const error = new SchemaValidationError('thing', result.error)
    expect(error.message).toMatch(
      /^Invalid thing: a: Required: expected string \| b: .* \| c: .* \(and 2 more\)\./,
    )
    expect(Object.keys(error.parameters)).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(error.cause).toBe(result.error)
    expect(error.name).toBe('SchemaValidationError')
  })
})
