import { type ErrorCode, isErrorCode, type TestElement, testElements } from '@chargekit/errors'
import { formatZodIssues } from '@chargekit/schemas'
import * as z from 'zod'
import { findProduct, products } from '../catalogue/products.js'
import { checkoutFlows } from '../orders/order.js'
import { checkoutFlowSettings, flowsFor } from '../payments/checkout-flows.js'
import { customerAnswerLabels } from '../payments/customer-simulator.js'

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
    z
      .object({
        product: z.enum(productIds, { error: 'Choose one of the products listed' }),
        flow: z.enum(checkoutFlows, { error: 'Choose how to pay' }),
      })
      .superRefine(({ product, flow }, context) => {
        const { currency } = findProduct(product) ?? {}
        if (currency === undefined || flowsFor(currency).includes(flow)) return
        const { label, currencies = [] } = checkoutFlowSettings[flow]
        context.addIssue({
          code: 'custom',
          path: ['flow'],
          message: `${label} takes ${currencies.join(', ')} only: choose another way to pay for a price in ${currency}`,
        })
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

export function parseSimulateCustomerForm(body: FormBody) {
  const answers = Object.keys(customerAnswerLabels) as [keyof typeof customerAnswerLabels]
  return parseWith(
    z.object({
      answer: z.enum(answers, { error: `Choose the customer's answer: ${answers.join(', ')}` }),
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
