import { randomBytes } from 'node:crypto'
import type { SandboxStore } from '../storage/sandbox-store'

/** A new secret in the form Svix and Stripe give theirs: `whsec_` and 24 random bytes in base64. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`
}

/**
 * The secret each account's deliveries are signed with, by account id. `configured`, the
 * deployment's own secret, signs every account's; `false` signs none, as the production service
 * sends its deliveries; otherwise each account has the secret the store keeps for it, made at
 * its first start, so a receiver configured with it keeps working across restarts.
 */
export async function resolveSigningSecrets(
  store: SandboxStore,
  accountIds: readonly string[],
  configured: string | false | undefined,
): Promise<ReadonlyMap<string, string>> {
  if (configured === false) return new Map()
  const secrets = await Promise.all(
    accountIds.map(
      async (id) =>
        [id, configured ?? (await store.signingSecret(id, generateSigningSecret()))] as const,
    ),
  )
  return new Map(secrets)
}
