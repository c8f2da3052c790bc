import { describe, expect, it } from 'vitest'
import { builtInProcessors } from '../src/index'
import { checkProcessor } from '../src/testing/index'

describe('smoke', () => {
  it('runs', async () => {
    const reports = await Promise.all(
      builtInProcessors.map((p) =>
        checkProcessor(p, p.name === 'simulated_acquirer' ? { decline: { details: { name: 'A', number: '4000000000000002', expiration_month: 12, expiration_year: 2030, cvc: '123' } } } : {}),
      ),
    )
    for (const r of reports) console.log(r.format())
    expect(reports.every((r) => r.ok)).toBe(true)
  }, 30000)
})
