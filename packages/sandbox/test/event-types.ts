import type { ApiCaller } from '../src/testing/index'

/** The types of a charge's events, oldest first, as `api`'s account lists them. */
export async function eventTypesOf(api: ApiCaller, chargeId: string): Promise<string[]> {
  const answer = await api('GET', `/events?charge=${chargeId}&per_page=100`)
  return (answer.body.collection as { type: string }[]).map((event) => event.type).reverse()
}
