import { createInstrumentRequestSchema } from '@chargekit/schemas'
import { instrumentRequestSchema } from '../../accounts/charge-types'
import { chargeTypeOf } from '../../lifecycle/context'
import { createInstrument, invalidateInstrument } from '../../lifecycle/instruments'
import { mustGet } from '../../lifecycle/objects'
import { reverseInstrument } from '../../lifecycle/reversals'
import type { HttpSettings } from '../endpoint'
import type { ApiHandlers } from '../operation-routes'
import { validateBody } from '../validate'
import { listOf } from './object-routes'

type InstrumentHandlers = Pick<
  ApiHandlers,
  | 'instruments.create'
  | 'instruments.list'
  | 'instruments.retrieve'
  | 'instruments.reverse'
  | 'instruments.invalidate'
>

export function instrumentHandlers(settings: HttpSettings): InstrumentHandlers {
  return {
    // The body is checked against the schema of the charge's own type, which its processor
    // declares. The charge is found first, so a charge that does not exist is a 404 whatever the
    // other fields are: an MB WAY request with a mistyped charge id is told so, not that a card
    // is missing.
    'instruments.create': async ({ body, step }) => {
      const charge = await mustGet(step, 'charge', chargeNamedBy(body))
      const schema = instrumentRequestSchema(chargeTypeOf(step, charge))
      const { charge: _charge, ...details } = validateBody(schema, body)
      return createInstrument(step, charge.id, details, settings.publicUrl)
    },
    'instruments.list': listOf('instrument'),
    'instruments.retrieve': ({ params, step }) => mustGet(step, 'instrument', params.id ?? ''),
    'instruments.reverse': ({ params, body, step }) =>
      reverseInstrument(step, params.id ?? '', body),
    'instruments.invalidate': ({ params, step }) => invalidateInstrument(step, params.id ?? ''),
  }
}

/**
 * The charge the body names. A body naming no charge has no type to be judged by, and is
 * judged as the card request the service documents.
 */
function chargeNamedBy(body: unknown): string {
  const named = (body as { charge?: unknown } | null | undefined)?.charge
  if (typeof named === 'string' && named !== '') return named
  return validateBody(createInstrumentRequestSchema, body).charge
}
