import { notFound } from '../api-problem'
import {
  type ObjectFilter,
  type ObjectKind,
  type ObjectKinds,
  parentIdOf,
} from '../storage/records'
import { type StepContext, withChargeLock } from './context'

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

/**
 * Runs a step on an existing object under the lock of its charge (404 when there is no such
 * object), with the object read again once the lock is held: what the step sees is what no
 * other step of the transaction can change until it is done.
 */
export async function withObjectLocked<K extends ObjectKind, T>(
  context: StepContext,
  kind: K,
  id: string,
  step: (object: ObjectKinds[K]) => Promise<T>,
): Promise<T> {
  const found: { id: string; charge?: unknown } | undefined = await context.deps.store.getObject(
    context.account.id,
    kind,
    id,
  )
  const chargeId = kind === 'charge' ? found?.id : parentIdOf(found?.charge)
  if (chargeId === undefined) throw notFound(kind, id)
  return withChargeLock(context, chargeId, async () => step(await mustGet(context, kind, id)))
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
