import { eventsList } from '@chargekit/schemas/operations'
import type { ApiFetch } from './api-proxy'

export type CredentialCheck =
  | { outcome: 'accepted'; authorization: string }
  | { outcome: 'refused' }
  | { outcome: 'unavailable'; status: number }

/**
 * Asks the API itself whether an account id and key are valid, with the cheapest authenticated
 * call there is (one event), so the dashboard never needs its own copy of the account list.
 */
export async function verifyCredentials(
  api: ApiFetch,
  origin: string,
  accountId: string,
  key: string,
): Promise<CredentialCheck> {
  const authorization = basicAuthorization(accountId, key)
  const answer = await api(
    new Request(new URL(`${eventsList.path}?per_page=1`, origin), {
      headers: { authorization, accept: 'application/json' },
    }),
  )
  await answer.body?.cancel()
  if (answer.status === 401) return { outcome: 'refused' }
  if (!answer.ok) return { outcome: 'unavailable', status: answer.status }
  return { outcome: 'accepted', authorization }
}

function basicAuthorization(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`)
  return `Basic ${btoa(String.fromCharCode(...bytes))}`
}
