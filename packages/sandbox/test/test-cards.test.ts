import { describe, expect, it } from 'vitest'
import { testCardRows, testCardRowsOf } from '../../../scripts/test-cards-page'
import { testCards } from '../src/index'

// The test-card table itself: what the processors read, the docs page shows and the example
// shop's card form lists. What each card does on each channel is tested through the client
// (packages/client/test/test-cards.test.ts).

/** The Luhn check digit holds: a payment form that checks it takes every test card. */
function passesLuhn(number: string): boolean {
  let sum = 0
  for (const [index, digit] of [...number].reverse().entries()) {
    const value = Number(digit) * (index % 2 === 1 ? 2 : 1)
    sum += value > 9 ? value - 9 : value
  }
  return sum % 10 === 0
}

describe('the test-card table', () => {
  it('is the table of docs/test-cards.md: pnpm docs:test-cards rewrites it', () => {
    expect(testCardRowsOf(), 'the table of docs/test-cards.md').toEqual(testCardRows())
  })

  it('has card numbers a form takes, each once, told apart by their first six and last four digits', () => {
    for (const { number } of testCards) {
      expect(number, number).toMatch(/^\d{16}$/)
      expect(passesLuhn(number), number).toBe(true)
    }
    const numbers = testCards.map((row) => row.number)
    expect(new Set(numbers).size).toBe(numbers.length)
    const seenLater = numbers.map((number) => `${number.slice(0, 6)}…${number.slice(-4)}`)
    expect(new Set(seenLater).size).toBe(numbers.length)
  })

  it('gives each card one outcome, and the codes it carries', () => {
    for (const row of testCards) {
      const behaviours = [row.declines, row.threeDSecure, row.captureDeclines]
      expect(behaviours.filter((each) => each !== undefined).length, row.number).toBeLessThan(2)
      if (row.declines !== undefined) expect(row.codes).toEqual([row.declines])
      if (row.captureDeclines !== undefined) expect(row.codes).toEqual([row.captureDeclines])
    }
    expect(testCards.filter((row) => row.codes.length === 0).map((row) => row.summary)).toEqual([
      'Approved (Visa)',
      'Approved (Mastercard)',
    ])
  })
})
