import { listQuerySchema } from '@chargekit/schemas'
import type { Hono } from 'hono'
import * as z from 'zod'
import { mustGet } from '../../lifecycle/objects'
import type { ObjectFilter, ObjectKind } from '../../storage/records'
import { endpoint, type HttpSettings } from '../endpoint'
import { definedOnly, listEnvelope, pageRequestOf } from '../list-envelope'
import type { SandboxEnv } from '../sandbox-env'
import { validateQuery } from '../validate'

/** The filters a list may offer: each narrows to one parent id or one status. */
export type ListFilterName = Exclude<keyof ObjectFilter, 'unsettled'>

/**
 * `GET path`: the account's objects of `kind`, newest first, paged, narrowed by the `filters` it
 * names. Any other query parameter is refused with a 400 naming it and the accepted ones.
 */
export function objectListRoute(
  api: Hono<SandboxEnv>,
  settings: HttpSettings,
  path: string,
  kind: ObjectKind,
  filterNames: readonly ListFilterName[],
): void {
  const filterShape: Partial<Record<ListFilterName, z.ZodOptional<z.ZodString>>> =
    Object.fromEntries(filterNames.map((name) => [name, z.string().min(1).optional()]))
  const schema = listQuerySchema.extend(filterShape)
  api.get(
    path,
    endpoint(settings, async ({ c, step }) => {
      const query = validateQuery(schema, c.req.query())
      const filters = definedOnly(
        Object.fromEntries(filterNames.map((name) => [name, query[name]])),
      )
      const page = await step.deps.store.listObjects(
        step.account.id,
        kind,
        filters as ObjectFilter,
        pageRequestOf(query),
      )
      return { status: 200, body: listEnvelope(page, query, filters) }
    }),
  )
}

/** Objects the API only reads: refunds, reversals, disputes and settlements. */
const readOnly: readonly [path: string, kind: ObjectKind, filters: ListFilterName[]][] = [
  ['/refunds', 'refund', ['payment', 'charge', 'status']],
  ['/reversals', 'reversal', ['instrument', 'charge']],
  ['/disputes', 'dispute', ['payment', 'charge', 'status']],
  ['/settlements', 'settlement', []],
]

export function objectRoutes(api: Hono<SandboxEnv>, settings: HttpSettings): void {
  for (const [path, kind, filters] of readOnly) {
    objectListRoute(api, settings, path, kind, filters)
    api.get(
      `${path}/:id`,
      endpoint(settings, async ({ c, step }) => ({
        status: 200,
        body: await mustGet(step, kind, c.req.param('id') ?? ''),
      })),
    )
  }
}
