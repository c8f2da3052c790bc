import {
  type Operation,
  type OperationRoute,
  operationTable,
  type SchemaName,
} from '@chargekit/schemas/operations'
import {
  chargeShape,
  chargeTypeListShape,
  disputeShape,
  instrumentShape,
  paymentShape,
  recordedRequestShape,
  refundShape,
  reversalShape,
  type Shape,
  settlementShape,
  signingSecretShape,
} from '@chargekit/schemas/response-checks'
import { noContentValidator, type ResponseValidator } from '../response-validator'
import { eventValidator, listValidator, shapeValidator } from '../schema-validators'

/** The response check of each object an operation answers, generated from its schema. */
const shapes: Partial<Record<SchemaName, Shape>> = {
  Charge: chargeShape,
  ChargeTypeList: chargeTypeListShape,
  Instrument: instrumentShape,
  Reversal: reversalShape,
  Payment: paymentShape,
  Refund: refundShape,
  Dispute: disputeShape,
  Settlement: settlementShape,
  RecordedRequest: recordedRequestShape,
  SigningSecret: signingSecretShape,
}

const validators = new Map<string, ResponseValidator<unknown>>()
const operations = new Map<string, Operation>(
  operationTable.map((operation) => [operation.id, operation]),
)

/** `ChargeTypeList` → "charge type list", as messages name what did not match. */
const wordsOf = (name: string) => name.replace(/(?!^)([A-Z])/g, ' $1').toLowerCase()

function objectValidator(name: SchemaName): ResponseValidator<unknown> {
  if (name === 'Event') return eventValidator
  const shape = shapes[name]
  if (shape === undefined) throw new Error(`No response check for ${name}`)
  return shapeValidator(wordsOf(name), shape)
}

/**
 * The check of what the operation of `route` answers, as the operation table names it: an
 * object, a page of them (each item checked with its own), or nothing. Made once per answer and
 * shared.
 */
export function answerValidator(route: OperationRoute): ResponseValidator<unknown> {
  const operation = operations.get(route.id)
  if (operation === undefined) throw new Error(`${route.id} is not in the operation table`)
  const { answer } = operation
  if (answer === 'nothing') return noContentValidator
  if (
    answer === 'page' ||
    answer === 'document' ||
    (typeof answer === 'object' && 'stream' in answer)
  ) {
    throw new Error(`${operation.id} answers no JSON object for a client to check`)
  }
  const key = typeof answer === 'object' ? `${answer.list}[]` : answer
  let validator = validators.get(key)
  if (validator === undefined) {
    validator =
      typeof answer === 'object'
        ? listValidator(objectValidator(answer.list))
        : objectValidator(answer)
    validators.set(key, validator)
  }
  return validator
}
