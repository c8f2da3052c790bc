import { notFound } from '../api-problem'
import type { ObjectFilter, ObjectKind, ObjectKinds } from '../storage/records'
import type { StepContext } from './context'

/** An object of this account, or 404 naming what was not found. */
export async function mustGet<K extends ObjectKind>(
  context: StepContext,
  kind: K,
  id: string,
): Promise<ObjectKinds[K]> {
  const object = await context.deps.store.getObject(context.account.id, kind, id)
  if (object === undefined) throw notFound(kind, id)
  return object
}

/** Every object of a kind matching `filter` (few per transaction, so no paging). */
export async function allOf<K extends ObjectKind>(
  context: StepContext,
  kind: K,
  filter: ObjectFilter,
): Promise<ObjectKinds[K][]> {
  const page = await context.deps.store.listObjects(context.account.id, kind, filter, {
    offset: 0,
    limit: Number.POSITIVE_INFINITY,
  })
  return page.items
}
