import { checkProcessor, processorTests } from '@chargekit/sandbox/testing'
import { describe, expect, it } from 'vitest'
import { voucherProcessor } from '../src/index'

// One test per conformance check: every step at the default amount (10 EUR), where the issuer
// answers later; declines by test amounts, and by an empty voucher.
processorTests(
  voucherProcessor,
  { describe, it },
  {
    decline: { details: { voucher_code: 'EMPT-0000-0000' } },
  },
)

describe('voucherly over 100 EUR', () => {
  it('passes the kit where the customer confirms in the app, and expires unconfirmed', async () => {
    const report = await checkProcessor(voucherProcessor, { amount: 250 })
    expect(report.ok, report.format()).toBe(true)
    const names = report.checks.map((check) => check.name)
    expect(names).toContain('voucher: customer declines')
    expect(names).toContain('voucher: deadline honoured')
    expect(report.checks.find((check) => check.name === 'voucher: instrument')?.message).toBe(
      'authorized: pending awaiting the customer, who approved (app)',
    )
  })
})
