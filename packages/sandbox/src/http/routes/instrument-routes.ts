import { createReversalRequestSchema } from '@chargekit/schemas'
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
    // The body is checked against the schema of the charge's own type, which its processor declares.
    'instruments.create': ({ body, step }) => createInstrument(step, body, settings.publicUrl),
    'instruments.list': listOf('instrument'),
    'instruments.retrieve': ({ params, step }) => mustGet(step, 'instrument', params.id ?? ''),
    'instruments.reverse': ({ params, body, step }) =>
      reverseInstrument(step, params.id ?? '', validateBody(createReversalRequestSchema, body)),
    'instruments.invalidate': ({ params, step }) => invalidateInstrument(step, params.id ?? ''),
  }
}
