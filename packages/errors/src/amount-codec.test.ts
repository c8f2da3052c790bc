import fc from 'fast-check'
import { describe, expect, expectTypeOf, it } from 'vitest'
import {
  type DecodedTestAmount,
  decodeTestAmount,
  type ErrorCode,
  encodeTestAmount,
  errorCodes,
  formatTestAmount,
  type TestAmountCode,
  TestAmountError,
  type TestElement,
  testElements,
} from './index'

const codes = errorCodes.map((info) => info.code)
const pairs = codes.flatMap((code) => testElements.map((element) => [code, element] as const))

describe('worked examples', () => {
  it('06.02.0000 + instrument → 6020000.20', () => {
    expect(formatTestAmount('06.02.0000', 'instrument')).toBe('6020000.20')
    expect(encodeTestAmount('06.02.0000', 'instrument')).toBe(6020000.2)
    expect(decodeTestAmount(6020000.2)).toEqual({ code: '06.02.0000', element: 'instrument' })
    expect(decodeTestAmount('6020000.20')).toEqual({ code: '06.02.0000', element: 'instrument' })
  })

  it('03.03.0001 + payment → 3030001.30', () => {
    expect(formatTestAmount('03.03.0001', 'payment')).toBe('3030001.30')
    expect(encodeTestAmount('03.03.0001', 'payment')).toBe(3030001.3)
    expect(decodeTestAmount(3030001.3)).toEqual({ code: '03.03.0001', element: 'payment' })
  })
})

describe('encodeTestAmount / formatTestAmount', () => {
  it('maps the elements to .10 … .50 and drops the leading zeros of the code', () => {
    expect(testElements.map((element) => formatTestAmount('01.01.0000', element))).toEqual([
      '1010000.10',
      '1010000.20',
      '1010000.30',
      '1010000.40',
      '1010000.50',
    ])
    expect(formatTestAmount('99.02.0004', 'reversal')).toBe('99020004.50')
    expect(encodeTestAmount('05.02.0000', 'refund')).toBe(5020000.4)
  })

  it('produces, for every code × element, the exact two-decimal amount as string and number', () => {
    expect(pairs).toHaveLength(200)
    for (const [code, element] of pairs) {
      const text = formatTestAmount(code, element)
      expect(text).toBe(`${Number(code.replaceAll('.', ''))}.${testElements.indexOf(element) + 1}0`)
      const amount = encodeTestAmount(code, element)
      // Two decimals exactly: the number prints back as the same decimal, no drift.
      expect(amount.toFixed(2)).toBe(text)
      expect(String(amount)).toBe(text.replace(/0$/, ''))
    }
  })

  it('throws a TestAmountError naming the bad code', () => {
    for (const code of ['06.02.0001', '6020000', '', 'risk']) {
      const call = () => encodeTestAmount(code, 'instrument')
      expect(call).toThrow(TestAmountError)
      expect(call).toThrow(`Unknown error code ${JSON.stringify(code)}`)
      expect(() => formatTestAmount(code, 'charge')).toThrow(/expected a catalogue code/)
    }
    try {
      formatTestAmount('06.02.0001', 'payment')
      expect.unreachable()
    } catch (error) {
      expect(error).toMatchObject({ argument: 'code', value: '06.02.0001' })
      expect(error).toBeInstanceOf(Error)
      expect((error as Error).name).toBe('TestAmountError')
    }
  })

  it('types code as the catalogue codes for editors, still accepting any runtime string', () => {
    expectTypeOf(encodeTestAmount).parameter(0).toEqualTypeOf<TestAmountCode>()
    expectTypeOf(formatTestAmount).parameter(0).toEqualTypeOf<TestAmountCode>()
    // The literals survive in the parameter type (a plain `string` would swallow them)...
    expectTypeOf<TestAmountCode>().not.toEqualTypeOf<string>()
    expectTypeOf<ErrorCode>().toExtend<TestAmountCode>()
    expectTypeOf<DecodedTestAmount['code']>().toExtend<TestAmountCode>()
    // ...and a code read at runtime type-checks, to be refused by the runtime check.
    expectTypeOf<string>().toExtend<TestAmountCode>()
    const fromTheWire: string = '06.02.0009'
    expect(() => encodeTestAmount(fromTheWire, 'charge')).toThrow(/Unknown error code "06.02.0009"/)
  })

  it('throws a TestAmountError naming the bad element', () => {
    const call = () => encodeTestAmount('06.02.0000', 'settlement' as TestElement)
    expect(call).toThrow(TestAmountError)
    expect(call).toThrow(
      'Unknown test element "settlement": expected one of charge, instrument, payment, refund, reversal',
    )
    expect(() => formatTestAmount('06.02.0000', undefined as unknown as TestElement)).toThrow(
      /Unknown test element undefined/,
    )
  })
})

describe('decodeTestAmount', () => {
  it('answers undefined for amounts that encode nothing', () => {
    for (const amount of [42, 42.25, 6020000.6, '42', '42.25', '6020000.60', '6020000.00']) {
      expect(decodeTestAmount(amount)).toBeUndefined()
    }
    // Well-formed decimals whose integer part is not a catalogue code.
    for (const amount of [6020001.2, 1010001.1, 7000000.1, 0.1, 100000000.1, '123456789.20']) {
      expect(decodeTestAmount(amount)).toBeUndefined()
    }
  })

  it('answers undefined for anything that is not a plain non-negative decimal', () => {
    const inputs = [
      '',
      ' 6020000.20',
      '6020000.20 ',
      '+6020000.20',
      '-6020000.20',
      '6020000.',
      '.20',
      '6,020,000.20',
      '6020000,20',
      '6.0200002e6',
      '6020000.2e0',
      '0x5bdb20.2',
      -6020000.2,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      6020000.2000001,
    ]
    for (const amount of inputs) expect(decodeTestAmount(amount)).toBeUndefined()
  })

  it('reads the same amount written with fewer or more decimals or leading zeros', () => {
    const expected = { code: '06.02.0000', element: 'instrument' }
    for (const amount of ['6020000.2', '6020000.20', '6020000.200', '06020000.20']) {
      expect(decodeTestAmount(amount)).toEqual(expected)
    }
    expect(decodeTestAmount('6020000.02')).toBeUndefined()
  })

  it('decodes every code × element from both the number and the string', () => {
    for (const [code, element] of pairs) {
      expect(decodeTestAmount(encodeTestAmount(code, element))).toEqual({ code, element })
      expect(decodeTestAmount(formatTestAmount(code, element))).toEqual({ code, element })
    }
  })
})

describe('properties', () => {
  const code = fc.constantFrom(...codes)
  const element = fc.constantFrom(...testElements)

  it('decode(encode(c, e)) and decode(format(c, e)) round-trip', () => {
    fc.assert(
      fc.property(code, element, (c, e) => {
        expect(decodeTestAmount(encodeTestAmount(c, e))).toEqual({ code: c, element: e })
        expect(decodeTestAmount(formatTestAmount(c, e))).toEqual({ code: c, element: e })
      }),
      { numRuns: 500 },
    )
  })

  it('decode never throws, and whatever it decodes encodes back to the same amount', () => {
    const amount = fc.oneof(
      fc.anything(),
      fc.double(),
      fc.integer(),
      fc.string(),
      fc.stringMatching(/^\d{1,10}(\.\d{1,4})?$/),
      // Near-misses of real test amounts: one cent off, or a drifted float.
      fc
        .tuple(code, element, fc.integer({ min: -3, max: 3 }))
        .map(([c, e, cents]) => (Math.round(encodeTestAmount(c, e) * 100) + cents) / 100),
    )
    fc.assert(
      fc.property(amount, (value) => {
        const decoded = decodeTestAmount(value as number | string)
        if (decoded === undefined) return
        const text = formatTestAmount(decoded.code, decoded.element)
        if (typeof value === 'number') expect(value).toBe(Number(text))
        else expect(Number(value)).toBe(Number(text))
      }),
      { numRuns: 2000 },
    )
  })
})
