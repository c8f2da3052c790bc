import type { ListQuery } from '@chargekit/schemas'
import { mustGet } from '../../lifecycle/objects'
import type { ObjectFilter, ObjectKind } from '../../storage/records'
import { definedOnly, listEnvelope, pageRequestOf } from '../list-envelope'
import type { ApiHandlers, OperationInput } from '../operation-routes'

/**
 * A list of the account's objects of `kind`, newest first, paged, narrowed by the filters its
 * query names (each one parent id or one status).
 */
export function listOf(kind: ObjectKind) {
  return async ({ query, step }: OperationInput<ListQuery & Record<string, unknown>>) => {
    const { page: _page, per_page: _perPage, ...named } = query
    const filters = definedOnly(named)
    const page = await step.deps.store.listObjects(
      step.account.id,
      kind,
      filters as ObjectFilter,
      pageRequestOf(query),
    )
    return listEnvelope(page, query, filters)
  }
}

const retrieve =
  (kind: ObjectKind) =>
  ({ params, step }: OperationInput) =>
    mustGet(step, kind, params.id ?? '')

/** Objects the API only reads: refunds, reversals, disputes and settlements. */
export function objectHandlers(): Pick<
  ApiHandlers,
  | 'refunds.retrieve'
  | 'refunds.list'
  | 'reversals.retrieve'
  | 'reversals.list'
  | 'disputes.retrieve'
  | 'disputes.list'
  | 'settlements.retrieve'
  | 'settlements.list'
> {
  return {
    'refunds.retrieve': retrieve('refund'),
    'refunds.list': listOf('refund'),
    'reversals.retrieve': retrieve('reversal'),
    'reversals.list': listOf('reversal'),
    'disputes.retrieve': retrieve('dispute'),
    'disputes.list': listOf('dispute'),
    'settlements.retrieve': retrieve('settlement'),
    'settlements.list': listOf('settlement'),
  }
}
