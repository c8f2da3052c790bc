import { compareAmounts } from '@chargekit/schemas'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiProblem } from '../src/http/api-problem'
import { maxFormFields, parseFormBody } from '../src/http/form-body'
import { readNumericText } from '../src/http/lenient-fields'
import { authorization, startTestSandbox, type TestSandbox } from '../src/testing/index'

type FormTree = { [key: string]: string | FormTree | (string | FormTree)[] }

const formKey = fc
  .stringMatching(/^[^[\]&=]{1,8}$/)
  .filter((key) => !['__proto__', 'constructor', 'prototype'].includes(key) && !/^\d+$/.test(key))

const formTree: fc.Arbitrary<FormTree> = fc.letrec<{ tree: FormTree; value: FormTree[string] }>(
  (tie) => ({
    tree: fc.dictionary(formKey, tie('value'), { minKeys: 1, maxKeys: 4 }),
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.string({ maxLength: 6 }),
      tie('tree'),
      fc.array(fc.oneof(fc.string({ maxLength: 6 }), tie('tree')), { minLength: 1, maxLength: 3 }),
    ),
  }),
).tree

/**
 * Encodes a tree as PHP's http_build_query does (`a[b][0]=x`), or with `a[b][]=x` for lists of
 * plain values, as jQuery and Rails forms do (appended items of objects would each start a new
 * object, so those lists keep their indices).
 */
function encodeForm(tree: FormTree, appendLists: boolean): string {
  const pairs: [string, string][] = []
  const walk = (prefix: string, value: FormTree[string]) => {
    if (typeof value === 'string') pairs.push([prefix, value])
    else if (Array.isArray(value)) {
      const append = appendLists && value.every((item) => typeof item === 'string')
      for (const [index, item] of value.entries()) walk(`${prefix}[${append ? '' : index}]`, item)
    } else for (const [key, item] of Object.entries(value)) walk(`${prefix}[${key}]`, item)
  }
  for (const [key, value] of Object.entries(tree)) walk(key, value)
  return new URLSearchParams(pairs).toString()
}

function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0
  return 1 + Math.max(0, ...Object.values(value).map(depthOf))
}

describe('form body parser', () => {
  it('reads back every tree a PHP or Rails form encodes', () => {
    fc.assert(
      fc.property(formTree, fc.boolean(), (tree, appendLists) => {
        expect(parseFormBody(encodeForm(tree, appendLists), 20)).toEqual(tree)
      }),
      { numRuns: 300 },
    )
  })

  it('answers any text with fields, or a 400 naming what is wrong, never anything else', () => {
    const formish = fc
      .array(
        fc.tuple(
          fc.stringMatching(/^[a-z[\]_0-9]{0,12}$/),
          fc.constantFrom('=', ''),
          fc.string({ maxLength: 4 }),
        ),
        { maxLength: 8 },
      )
      .map((pairs) => pairs.map((pair) => pair.join('')).join('&'))
    fc.assert(
      fc.property(fc.oneof(formish, fc.string()), (text) => {
        try {
          const fields = parseFormBody(text, 5)
          expect(depthOf(fields)).toBeLessThanOrEqual(1 + 5)
          expect(Object.getPrototypeOf(fields)).toBe(Object.prototype)
        } catch (error) {
          expect(error).toBeInstanceOf(ApiProblem)
          expect((error as ApiProblem).status).toBe(400)
          expect(Object.keys((error as ApiProblem).body.parameters ?? {}).length).toBeGreaterThan(0)
        }
      }),
      { numRuns: 500 },
    )
  })

  it(`refuses more than ${maxFormFields} fields`, () => {
    const text = Array.from({ length: maxFormFields + 1 }, (_, index) => `f${index}=1`).join('&')
    expect(() => parseFormBody(text, 20)).toThrow(ApiProblem)
    expect(Object.keys(parseFormBody(text.slice(0, text.lastIndexOf('&')), 20))).toHaveLength(
      maxFormFields,
    )
  })
})

/** Decimal text with up to `maxDigits` digits and up to 4 decimals, such as "-0120.50". */
const decimalText = (maxDigits: number) =>
  fc
    .tuple(
      fc.boolean(),
      fc.stringMatching(new RegExp(`^\\d{1,${maxDigits}}$`)),
      fc.integer({ min: 0, max: 4 }),
    )
    .map(([negative, digits, scale]) => {
      const padded = digits.padStart(scale + 1, '0')
      const whole = padded.slice(0, padded.length - scale)
      const fraction = scale === 0 ? '' : `.${padded.slice(padded.length - scale)}`
      return `${negative ? '-' : ''}${whole}${fraction}`
    })

describe('numeric text reader', () => {
  it('reads decimal text of up to 15 digits as exactly that number', () => {
    fc.assert(
      fc.property(decimalText(15), (text) => {
        const number = readNumericText(text)
        expect(typeof number).toBe('number')
        expect(compareAmounts(text, number as number)).toBe(0)
      }),
      { numRuns: 500 },
    )
  })

  it('never answers a number that differs from the text', () => {
    fc.assert(
      fc.property(fc.oneof(decimalText(30), fc.string()), (text) => {
        const number = readNumericText(text)
        if (typeof number === 'number') expect(compareAmounts(text, number)).toBe(0)
        else if (!/^-?\d+(?:\.\d+)?$/.test(text)) expect(number).toBe('not a number')
        else expect(number).toBe('inexact')
      }),
      { numRuns: 500 },
    )
  })
})

describe('amounts as text over HTTP', () => {
  let harness: TestSandbox
  beforeAll(async () => {
    harness = await startTestSandbox({ deliverEvents: false })
  })
  afterAll(() => harness.close())

  const postCharge = async (amount: string) => {
    const { id, key } = harness.sandbox.accounts[0] ?? { id: '', key: '' }
    const response = await harness.sandbox.fetch(
      new Request(`${harness.sandbox.apiUrl}/charges`, {
        method: 'POST',
        headers: { authorization: authorization(id, key), 'content-type': 'application/json' },
        body: JSON.stringify({
          charge_type: 'card_onetime',
          amount,
          currency: 'USD',
          events_url: harness.eventsUrl,
        }),
      }),
    )
    return { status: response.status, body: await response.json() }
  }

  it('takes a USD amount as text exactly when a number would be taken, and as that number', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 1n, max: 999_999_999_999_999n }),
        fc.integer({ min: 0, max: 3 }),
        async (units, scale) => {
          const text = units.toString().padStart(scale + 1, '0')
          const amount = scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}`
          const answer = await postCharge(amount)
          // Refused exactly when the same value as a JSON number would be: too many decimals
          // (a third one that is not 0) or over the exact maximum.
          const tooPrecise = scale === 3 && !amount.endsWith('0')
          const tooLarge = compareAmounts(amount, '9999999999999.99') > 0
          if (tooPrecise || tooLarge) {
            expect(answer.status).toBe(400)
            expect(Object.keys(answer.body.parameters)).toEqual(['amount'])
          } else {
            expect(answer.status).toBe(201)
            expect(compareAmounts(answer.body.amount, amount)).toBe(0)
          }
        },
      ),
      { numRuns: 60 },
    )
  })
})
