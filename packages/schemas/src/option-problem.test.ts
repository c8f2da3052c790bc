import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import * as z from 'zod/v4'
import { readOptions } from './option-problem'

const optionsSchema = z.strictObject({
  timeoutMs: z.number({ error: 'must be a number of milliseconds' }).optional(),
  secret: z.string({ error: 'must be a string' }).optional(),
  retry: z
    .strictObject({ maxAttempts: z.int({ error: 'must be a whole number' }).optional() })
    .optional(),
})
const optionNames = ['timeoutMs', 'secret', 'retry']

describe('readOptions', () => {
  it('returns the parsed options, reading undefined as none', () => {
    expect(readOptions(optionsSchema, { timeoutMs: 5 })).toEqual({
      success: true,
      data: { timeoutMs: 5 },
    })
    expect(readOptions(optionsSchema, undefined)).toEqual({ success: true, data: {} })
  })

  it('reads any unknown key as unknown, with every option of its object', () => {
    const unknownKey = fc.string({ minLength: 1 }).filter((key) => !optionNames.includes(key))
    fc.assert(
      fc.property(unknownKey, (key) => {
        const read = readOptions(optionsSchema, { timeoutMs: 5, [key]: true })
        expect(read).toMatchObject({
          success: false,
          problem: { kind: 'unknown', path: [], key, known: optionNames },
        })
      }),
    )
  })

  it('suggests the likeliest intended option, in a nested optional object too', () => {
    expect(readOptions(optionsSchema, { timeout: 5 })).toEqual({
      success: false,
      problem: {
        kind: 'unknown',
        path: [],
        key: 'timeout',
        intended: 'timeoutMs',
        known: optionNames,
      },
    })
    expect(readOptions(optionsSchema, { retry: { max_attempts: 2 } })).toEqual({
      success: false,
      problem: {
        kind: 'unknown',
        path: ['retry'],
        key: 'max_attempts',
        intended: 'maxAttempts',
        known: ['maxAttempts'],
      },
    })
    expect(readOptions(optionsSchema, { colour: 'red' })).toMatchObject({
      problem: { kind: 'unknown', key: 'colour', intended: undefined },
    })
  })

  it('reads a bad value with its path, the schema message and what was given', () => {
    expect(readOptions(optionsSchema, { retry: { maxAttempts: 1.5 } })).toEqual({
      success: false,
      problem: {
        kind: 'invalid',
        path: ['retry', 'maxAttempts'],
        message: 'must be a whole number',
        given: '1.5',
      },
    })
    expect(readOptions(optionsSchema, { timeoutMs: '5' })).toMatchObject({
      problem: { kind: 'invalid', path: ['timeoutMs'], given: '"5"' },
    })
  })

  it('never describes the value of a secret option', () => {
    const read = readOptions(optionsSchema, { secret: 42 }, { secret: new Set(['secret']) })
    expect(read).toEqual({
      success: false,
      problem: { kind: 'invalid', path: ['secret'], message: 'must be a string', given: undefined },
    })
  })
})
