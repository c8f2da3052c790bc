import { type ErrorCode, isErrorCode, type TestElement, testElements } from '@chargekit/errors'
import { formatZodIssues } from '@chargekit/schemas'
import * as z from 'zod'
import { products } from '../catalogue/products.js'
import { checkoutFlows } from '../orders/order.js'

/**
 * The shop's form bodies, validated with zod and @chargekit/schemas. Each parse returns either
 * the typed value or field → messages for the page to show next to the inputs.
 */
export type FormResult<T> = { ok: true; value: T } | { ok: false; errors: Record<string, string[]> }

type FormBody = Record<string, unknown>

function parseWith<S extends z.ZodType>(schema: S, body: unknown): FormResult<z.output<S>> {
  const result = schema.safeParse(body)
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, errors: formatZodIssues(result.error) }
}

const productIds = products.map((product) => product.id) as [string, ...string[]]

export function parseCheckoutForm(body: FormBody) {
  return parseWith(
    z.object({
      product: z.enum(productIds, { error: 'Choose one of the products listed' }),
      flow: z.enum(checkoutFlows, { error: 'Choose how to pay' }),
    }),
    body,
  )
}

/** Idempotency key of a follow-up form: the page renders a fresh random one each time. */
const requestKey = z
  .string({ error: 'The form is missing its request key: reload the page' })
  .regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'The form is missing its request key: reload the page' })

export function parseActionForm(body: FormBody) {
  return parseWith(z.object({ request_key: requestKey }), body)
}

export function parseRefundForm(body: FormBody) {
  return parseWith(
    z.object({
      request_key: requestKey,
      amount: z.string({ error: 'Enter the amount to refund' }).trim().min(1, {
        error: 'Enter the amount to refund',
      }),
    }),
    body,
  )
}

export function parseScenarioForm(body: FormBody) {
  return parseWith(
    z.object({
      code: z.custom<ErrorCode>(isErrorCode, { error: 'Choose an error code from the catalogue' }),
      element: z.enum(testElements as readonly [TestElement, ...TestElement[]], {
        error: `Choose the failing step: ${testElements.join(', ')}`,
      }),
    }),
    body,
  )
}
