import { createChargeRequestSchemaFor } from '@chargekit/schemas'
import { currencyProblems, describeChargeType } from '../../accounts/charge-types'
import { chargeChannelProblems, confirmCharge, createCharge } from '../../lifecycle/charges'
import { mustGet } from '../../lifecycle/objects'
import type { ChargeType } from '../../processors/charge-type'
import type { ObjectFilter } from '../../storage/records'
import type { HttpSettings } from '../endpoint'
import { definedOnly, listEnvelope, pageRequestOf } from '../list-envelope'
import type { ApiHandlers } from '../operation-routes'
import { chargeAsSeenBy, needsPrivateKey } from '../public-key-scope'
import { validateBody } from '../validate'

type ChargeHandlers = Pick<
  ApiHandlers,
  'charges.create' | 'charges.types' | 'charges.retrieve' | 'charges.confirm' | 'charges.list'
>

export function chargeHandlers(settings: HttpSettings): ChargeHandlers {
  // Local merchants receive events on plain http to loopback; with allowHttpEventsUrl, to any host.
  const createChargeSchema = createChargeRequestSchemaFor({
    allowLoopbackHttp: true,
    allowAnyHttp: settings.allowHttpEventsUrl,
  })
  return {
    'charges.create': async ({ c, body, step }) => {
      const input = validateBody(createChargeSchema, body, (fields) => ({
        ...chargeChannelProblems(step.account, fields),
        ...currencyProblems(
          typeof fields.charge_type === 'string'
            ? settings.deps.processors.chargeType(fields.charge_type)
            : undefined,
          fields.currency,
        ),
      }))
      // A charge started in the customer's browser waits for the merchant's confirmation.
      if (c.get('credential') === 'public') {
        if (input.confirmed === true) throw needsPrivateKey('Confirming a charge')
        return chargeAsSeenBy('public', await createCharge(step, { ...input, confirmed: false }))
      }
      return createCharge(step, input)
    },
    'charges.types': async ({ step }) => ({
      collection: step.account.chargeTypes.map((id) =>
        describeChargeType(settings.deps.processors.chargeType(id) as ChargeType),
      ),
    }),
    'charges.retrieve': async ({ c, params, step }) =>
      chargeAsSeenBy(c.get('credential'), await mustGet(step, 'charge', params.id ?? '')),
    'charges.confirm': ({ params, step }) => confirmCharge(step, params.id ?? ''),
    'charges.list': async ({ query, step }) => {
      const filters = definedOnly({ metadata: query.metadata })
      const page = await step.deps.store.listObjects(
        step.account.id,
        'charge',
        filters as ObjectFilter,
        pageRequestOf(query),
      )
      return listEnvelope(page, query, filters)
    },
  }
}
