import { describe, expect, it } from 'vitest'
import { describeGiven } from './describe-given'

describe('describeGiven', () => {
  it.each([
    ['text', '"text"'],
    [12.5, '12.5'],
    [undefined, 'undefined'],
    [null, 'null'],
    [() => 'source', 'a function'],
    [['a'], 'an array'],
    [{ key: 'hidden' }, 'an object'],
  ])('%j reads as %s', (value, expected) => {
    expect(describeGiven(value)).toBe(expected)
  })
})
