import { describe, expect, expectTypeOf, it } from 'vitest'
import {
  type ErrorCode,
  errorCategories,
  errorCodes,
  errorCodesInCategory,
  isErrorCode,
  lookupErrorCode,
} from './index'

// The 41 rows of the service's code table (code, designation), copied in its order.
const documentedRows: ReadonlyArray<readonly [string, string]> = [
  ['01.01.0000', 'Invalid Parameters'],
  ['01.02.0000', 'Amount Mismatch'],
  ['01.03.0000', 'Instrument Mismatch'],
  ['02.00.0001', 'Failure'],
  ['02.01.0000', 'Too Many Tries'],
  ['02.02.0000', 'Limit Exceeded'],
  ['02.03.0000', 'Insufficient Funds'],
  ['02.04.0000', 'Temporary Issue'],
  ['03.00.0001', 'Processor Declined'],
  ['03.00.0002', 'Instrument Expired'],
  ['03.01.0000', 'Disabled Account'],
  ['03.02.0000', 'Unsupported Value'],
  ['03.02.0001', 'Unsupported Scheme'],
  ['03.02.0002', 'Unsupported BIN'],
  ['03.03.0000', 'Card is Declined'],
  ['03.03.0001', 'Card is Flagged as Lost/Stolen/Expired/ Restricted'],
  ['03.04.0000', 'Duplicate Operation'],
  ['04.01.0000', 'Processor Unavailable'],
  ['04.02.0000', 'Timeout Communicating With Processor'],
  ['05.01.0000', 'Configuration Error'],
  ['05.02.0000', 'Processor Configuration Error'],
  ['05.01.0002', 'Merchant Configuration Error'],
  ['05.02.0000', 'Invalid Processor Credentials'],
  ['05.03.0000', 'Authorization Error'],
  ['05.03.0001', 'Processor Authorization Error'],
  ['05.03.0002', 'Merchant Authorization Error'],
  ['05.04.0000', 'Feature Not Available'],
  ['05.04.0001', 'Instrument Already Captured'],
  ['05.04.0002', 'Instrument Not Authorized'],
  ['06.00.0000', 'Security Risk'],
  ['06.01.0000', '3DS Error'],
  ['06.01.0001', '3DS Not Allowed'],
  ['06.01.0002', '3DS Required'],
  ['06.02.0000', 'Unsafe Transaction'],
  ['99.00.0000', 'Unspecified Error'],
  ['99.01.0000', 'Internal Server Error'],
  ['99.02.0000', 'Processor Integration Error'],
  ['99.02.0001', 'Unexpected Processor Response'],
  ['99.02.0002', 'Unable To Read Processor Response'],
  ['99.02.0003', 'Processor Resource Not Found'],
  ['99.02.0004', 'Processor Unhandled Error'],
]

describe('errorCodes', () => {
  it('holds one entry per distinct documented code: 41 rows, 05.02.0000 twice, so 40', () => {
    expect(documentedRows).toHaveLength(41)
    expect(errorCodes).toHaveLength(40)
    expect(new Set(errorCodes.map((info) => info.code)).size).toBe(40)
  })

  it.each(documentedRows)(
    'finds documented row %s %s by code, as designation or alias',
    (code, name) => {
      const info = lookupErrorCode(code)
      expect(info?.code).toBe(code)
      expect([info?.designation, ...(info?.aliases ?? [])]).toContain(name)
    },
  )

  it('contains no code the service does not document', () => {
    const documentedCodes = new Set(documentedRows.map(([code]) => code))
    expect(errorCodes.filter((info) => !documentedCodes.has(info.code))).toEqual([])
  })

  it('keeps both designations and both descriptions of 05.02.0000', () => {
    expect(lookupErrorCode('05.02.0000')).toMatchObject({
      designation: 'Processor Configuration Error',
      aliases: ['Invalid Processor Credentials'],
      category: 'implementation',
    })
    expect(lookupErrorCode('05.02.0000')?.description).toMatch(/Processor incorrectly configured/)
    expect(lookupErrorCode('05.02.0000')?.description).toMatch(/credentials do not grant access/)
    expect(errorCodes.filter((info) => info.aliases.length > 0)).toHaveLength(1)
  })

  it('carries the documented descriptions', () => {
    expect(lookupErrorCode('02.03.0000')).toEqual({
      code: '02.03.0000',
      category: 'soft_decline',
      designation: 'Insufficient Funds',
      description: 'Not enough funds',
      aliases: [],
      retryable: true,
    })
    expect(lookupErrorCode('04.02.0000')?.description).toBe(
      'Server took too long; check the transaction status, retry if needed',
    )
    for (const info of errorCodes) expect(info.description.length).toBeGreaterThan(5)
  })

  it('assigns each code the category of its prefix', () => {
    for (const info of errorCodes) {
      const category = errorCategories.find((c) => c.prefix === info.code.slice(0, 2))
      expect(info.category).toBe(category?.name)
    }
    expect(lookupErrorCode('06.02.0000')?.category).toBe('risk')
    expect(lookupErrorCode('99.02.0004')?.category).toBe('unhandled')
  })

  it('marks only soft declines and communication failures as retryable', () => {
    const retryable = errorCodes.filter((info) => info.retryable).map((info) => info.code)
    expect(retryable).toEqual([
      '02.00.0001',
      '02.01.0000',
      '02.02.0000',
      '02.03.0000',
      '02.04.0000',
      '04.01.0000',
      '04.02.0000',
    ])
  })

  it('lists the entries of a category', () => {
    expect(errorCodesInCategory('validation').map((info) => info.code)).toEqual([
      '01.01.0000',
      '01.02.0000',
      '01.03.0000',
    ])
    const total = errorCategories.reduce((n, c) => n + errorCodesInCategory(c.name).length, 0)
    expect(total).toBe(40)
  })
})

describe('lookupErrorCode / isErrorCode', () => {
  it('answers undefined / false for anything that is not an exact catalogue code', () => {
    for (const value of ['', '06.02.0001', '6020000', '06020000', ' 06.02.0000', '06.02.0000 ']) {
      expect(lookupErrorCode(value)).toBeUndefined()
      expect(isErrorCode(value)).toBe(false)
    }
    for (const value of [undefined, null, 6020000, {}, ['06.02.0000']]) {
      expect(isErrorCode(value)).toBe(false)
    }
    expect(isErrorCode('06.02.0000')).toBe(true)
  })

  it('types ErrorCode as a literal union of the catalogue codes', () => {
    expectTypeOf<'06.02.0000'>().toExtend<ErrorCode>()
    expectTypeOf<'99.02.0004'>().toExtend<ErrorCode>()
    expectTypeOf<'06.02.0001'>().not.toExtend<ErrorCode>()
    expectTypeOf<string>().not.toExtend<ErrorCode>()
    const value: unknown = '03.03.0001'
    if (isErrorCode(value)) expectTypeOf(value).toEqualTypeOf<ErrorCode>()
    expect(isErrorCode(value)).toBe(true)
  })
})
