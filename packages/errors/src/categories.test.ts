import { describe, expect, expectTypeOf, it } from 'vitest'
import { type CategorizedCode, categoryOfCategorizedCode } from './categories'
import { categoryOf, errorCategories, errorCodes, lookupErrorCategory } from './index'

describe('errorCategories', () => {
  it('has the seven categories in prefix order with their meaning and a retry hint', () => {
    expect(errorCategories.map((c) => [c.prefix, c.name, c.retryable])).toEqual([
      ['01', 'validation', 'after_fix'],
      ['02', 'soft_decline', 'yes'],
      ['03', 'hard_decline', 'after_fix'],
      ['04', 'communication', 'yes'],
      ['05', 'implementation', 'after_fix'],
      ['06', 'risk', 'no'],
      ['99', 'unhandled', 'no'],
    ])
    expect(lookupErrorCategory('soft_decline')).toMatchObject({
      label: 'Soft declines',
      meaning: 'Declined; later attempts may succeed',
    })
    expect(lookupErrorCategory('hard_decline')?.meaning).toBe(
      'Declined; most require issuer or customer to fix the cause first',
    )
  })
})

describe('categoryOf', () => {
  it('classifies any well-formed code by prefix, also codes missing from the catalogue', () => {
    expect(categoryOf('06.02.0000')?.name).toBe('risk')
    expect(categoryOf('02.09.9999')?.name).toBe('soft_decline')
    expect(categoryOf('99.00.0000')?.label).toBe('Unhandled errors')
  })

  it('answers undefined for malformed codes and unknown prefixes', () => {
    for (const value of ['', '07.00.0000', '00.00.0000', '6.02.0000', '06.02.000', '06-02-0000']) {
      expect(categoryOf(value)).toBeUndefined()
    }
    expect(lookupErrorCategory('decline')).toBeUndefined()
  })
})

describe('categoryOfCategorizedCode', () => {
  it('types codes by prefix, so a catalogue row without a category cannot be written', () => {
    expectTypeOf<'06.02.0000'>().toExtend<CategorizedCode>()
    expectTypeOf<'99.02.0004'>().toExtend<CategorizedCode>()
    expectTypeOf<'07.00.0000'>().not.toExtend<CategorizedCode>()
    expectTypeOf<'6.02.0000'>().not.toExtend<CategorizedCode>()
    expectTypeOf<(typeof errorCodes)[number]['code']>().toExtend<CategorizedCode>()
  })

  it('answers the same category object as categoryOf for every catalogue code', () => {
    for (const { code } of errorCodes) {
      expect(categoryOfCategorizedCode(code)).toBe(categoryOf(code))
    }
    expect(categoryOfCategorizedCode('02.09.9999').name).toBe('soft_decline')
  })
})
