import { listQuerySchema } from '@chargekit/schemas'
import { type Context, Hono } from 'hono'
import * as z from 'zod'
import { ApiProblem } from '../http/api-problem'
import { pageRequestOf } from '../http/list-envelope'
import { searchParameterNames, searchQueryOf } from '../http/search-query'
import { validateQuery } from '../http/validate'
import {
  type ChargeSearchAnswer,
  chargeStatuses,
  type InsightRange,
  insightRanges,
  type ReceiversAnswer,
} from './browser/data-shapes'
import { searchCharges } from './charge-search'
import type { DashboardData } from './dashboard-options'
import { buildOverview } from './overview'
import { receiverDetail, receiverSummary } from './receiver-stats'
import { noStore } from './security-headers'
import type { SessionCookie } from './session-cookie'
import type { DashboardSession } from './session-store'

const decimalText = z
  .string()
  .regex(/^\d{1,15}(?:\.\d{1,6})?$/, { error: 'Expected an amount such as 25 or 25.50' })

const chargeSearchQuerySchema = listQuerySchema.extend({
  status: z.enum(chargeStatuses.map(([status]) => status)).optional(),
  charge_type: z.string().min(1).max(100).optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, { error: 'Expected an ISO 4217 code in capitals, such as EUR' })
    .optional(),
  amount_gte: decimalText.optional(),
  amount_lte: decimalText.optional(),
  metadata: z.record(z.string().max(100), z.string().max(500)).optional(),
})
const chargeSearchParameters = searchParameterNames(chargeSearchQuerySchema.shape)

const rangeSchema = z
  .enum(Object.keys(insightRanges) as [InsightRange, ...InsightRange[]])
  .default('24h')
const overviewQuerySchema = z.object({ range: rangeSchema })
const receiverQuerySchema = z.object({
  url: z.string().min(1).max(2048),
  range: rangeSchema,
})

/**
 * The dashboard's own reads, for what the API does not answer: `GET /data/charges` (the charges
 * list with a derived status and its filters), `/data/overview` (charts of the account's
 * activity), `/data/deliveries` (its events URLs) and `/data/deliveries/endpoint?url=` (one of
 * them). Read-only, for the signed-in account only, each bounded in what it reads.
 */
export function dataRoutes(deps: { cookie: SessionCookie; data: DashboardData }): Hono {
  const { cookie, data } = deps
  const routes = new Hono()

  const read = (
    answer: (session: DashboardSession, query: Record<string, unknown>) => Promise<unknown>,
  ) => {
    return async (c: Context) => {
      const session = cookie.current(c)
      if (session === undefined) {
        return c.json({ message: 'Not signed in; sign in again at /dashboard.' }, 401, noStore)
      }
      try {
        return c.json(await answer(session, searchQueryOf(new URL(c.req.url))), 200, noStore)
      } catch (error) {
        if (!(error instanceof ApiProblem)) throw error
        return c.json(error.body, error.status as 400, noStore)
      }
    }
  }

  routes.get(
    '/data/charges',
    read(async (session, query): Promise<ChargeSearchAnswer> => {
      const { page, per_page, ...filters } = validateQuery(
        chargeSearchQuerySchema,
        query,
        chargeSearchParameters,
      )
      const found = await searchCharges(
        data.store,
        session.accountId,
        {
          status: filters.status,
          chargeType: filters.charge_type,
          currency: filters.currency,
          amountGte: filters.amount_gte,
          amountLte: filters.amount_lte,
          metadata: filters.metadata,
        },
        pageRequestOf({ page, per_page }),
      )
      return {
        collection: found.items,
        pagination: { page, per_page, total: found.total },
        filters: Object.fromEntries(
          Object.entries(filters).filter(([, value]) => value !== undefined),
        ),
        scanned: found.scanned,
        truncated: found.truncated,
      }
    }),
  )

  routes.get(
    '/data/overview',
    read(async (session, query) => {
      const { range } = validateQuery(overviewQuerySchema, query)
      return buildOverview(data.store, session.accountId, range, data.now())
    }),
  )

  routes.get(
    '/data/deliveries',
    read(async (session, query): Promise<ReceiversAnswer> => {
      validateQuery(z.object({}), query)
      return {
        collection: data.deliveries.receivers(session.accountId).map(receiverSummary),
      }
    }),
  )

  routes.get(
    '/data/deliveries/endpoint',
    read(async (session, query) => {
      const { url, range } = validateQuery(receiverQuerySchema, query)
      const receiver = data.deliveries.receiver(session.accountId, url)
      if (receiver === undefined) {
        throw new ApiProblem(404, {
          message: `This sandbox has made no delivery attempt to ${url} for this account since it started`,
        })
      }
      return receiverDetail(receiver, range, data.now())
    }),
  )

  return routes
}
