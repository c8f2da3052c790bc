import type { Hono } from 'hono'
import { mustGet } from '../../lifecycle/objects'
import type { ObjectKind } from '../../storage/records'
import { endpoint, type HttpSettings } from '../endpoint'
import type { SandboxEnv } from '../sandbox-env'

/** Read-only objects: refunds, reversals, disputes and settlements. */
const readOnly: readonly [string, ObjectKind][] = [
  ['/refunds/:id', 'refund'],
  ['/reversals/:id', 'reversal'],
  ['/disputes/:id', 'dispute'],
  ['/settlements/:id', 'settlement'],
]

export function objectRoutes(api: Hono<SandboxEnv>, settings: HttpSettings): void {
  for (const [path, kind] of readOnly) {
    api.get(
      path,
      endpoint(settings, async ({ c, step }) => ({
        status: 200,
        body: await mustGet(step, kind, c.req.param('id') ?? ''),
      })),
    )
  }
}
