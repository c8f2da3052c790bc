import { describe, expect, it } from 'vitest'
import { closestName } from './index'

describe('closestName', () => {
  const fields = ['redirect_url', 'captured_on_creation', 'timeoutMs', 'amount', 'currency']

  it.each([
    ['redirectUrl', 'redirect_url'],
    ['REDIRECT-URL', 'redirect_url'],
    ['timeout', 'timeoutMs'],
    ['captured_on_creaton', 'captured_on_creation'],
    ['ammount', 'amount'],
    ['curency', 'currency'],
  ])('%s → %s', (name, expected) => {
    expect(closestName(name, fields)).toBe(expected)
  })

  it.each([['colour'], ['x'], [''], ['_-'], ['a'.repeat(65)]])('%j has no suggestion', (name) => {
    expect(closestName(name, fields)).toBeUndefined()
  })

  it('takes any iterable and prefers the same name over a nearer spelling', () => {
    expect(closestName('amount', new Set(['amounts', 'Amount']))).toBe('Amount')
  })
})
