import type { ChargekitClient, Event, EventType } from '@chargekit/client'
import { CliError } from '../errors'
import { objectsOf } from '../formats'
import { pollUntil } from '../poll'
import type { Recipe } from './recipes'
import { type FlowSettings, TriggerFlow } from './trigger-flow'

/** What one trigger did: the objects of its charge as they now stand, and its events. */
export interface TriggerResult {
  event_type: EventType
  charge: string
  /** The charge and every object of its transaction, as the newest event shows them. */
  objects: Record<string, unknown>
  /** Every event of the charge so far, oldest first. */
  events: Event[]
}

/** The most events one flow's charge has: a generous bound for reading them back. */
const maxEventsPerCharge = 1000

/**
 * Runs `recipe`, then waits until `expected` appears among its charge's events (the service may
 * record it after answering, as an acquirer's later confirmation is).
 */
export async function runTrigger(
  client: ChargekitClient,
  expected: EventType,
  recipe: Recipe,
  settings: FlowSettings,
): Promise<TriggerResult> {
  const flow = new TriggerFlow(client, settings)
  await recipe.run(flow)
  const charge = flow.chargeId
  if (charge === undefined) throw new CliError(`the ${expected} flow created no charge`)
  await pollUntil(
    async () => (await client.events.list({ charge, type: expected, per_page: 1 })).collection[0],
    {
      timeoutMs: settings.timeoutMs,
      what: `${expected} on charge ${charge}`,
      signal: settings.signal,
    },
  )
  const events = (
    await client.events.list({ charge, per_page: 100 }).toArray({ limit: maxEventsPerCharge })
  ).reverse()
  const newest = events.at(-1)
  const objects = newest === undefined ? {} : Object.fromEntries(objectsOf(newest))
  return { event_type: expected, charge, objects, events }
}
