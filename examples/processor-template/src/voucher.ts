import { defineChargeType } from '@chargekit/sandbox'
import * as z from 'zod'

/** `GIFT-1234-5678`: four letters, then two groups of four digits. */
const voucherCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{4}-\d{4}-\d{4}$/, 'Expected a voucher code such as GIFT-1234-5678')

/**
 * Vouchers: the customer pays with the code printed on a gift voucher. The instrument request
 * carries that code; the sandbox validates it with this schema (a 400 naming `voucher_code`
 * otherwise) and publishes the schema in GET /v2/charges/types for payment forms.
 */
export const voucher = defineChargeType({
  id: 'voucher',
  label: 'Gift voucher',
  recurring: false,
  instrumentRequest: z.object({ voucher_code: voucherCode }),
  example: { voucher_code: 'GIFT-1234-5678' },
  // What the merchant sees on the instrument: never the whole code, which is spendable.
  params: ({ voucher_code }, { fingerprint }) => ({
    voucher_last_4: voucher_code.slice(-4),
    fingerprint: fingerprint(voucher_code),
  }),
})
