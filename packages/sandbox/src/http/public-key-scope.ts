import { type Charge, type PublicCharge, publicChargeFields } from '@chargekit/schemas'
import { operationTable, pathPattern } from '@chargekit/schemas/operations'
import { designationOf } from '../lifecycle/lifecycle-error'
import { ApiProblem } from './api-problem'

/**
 * What an account's public key may call: the operations the table opens to it (`keys:
 * 'public'`), exactly what a customer's browser needs to pay, so a key published in a web page
 * can neither move money nor read anything but the checkout it pays. Everything else takes the
 * private key, which belongs on the merchant's server.
 */
const publicKeyOperations: readonly (readonly [method: string, path: RegExp])[] = operationTable
  .filter((operation) => operation.keys === 'public')
  .map((operation) => [operation.method, pathPattern(operation.path)])

/** Whether the public key may call `method path` (the path under the origin, `/v2/…`). */
export function publicKeyMayCall(method: string, path: string): boolean {
  return publicKeyOperations.some(([allowed, pattern]) => allowed === method && pattern.test(path))
}

/** 403 05.03.0000: the public key was used for something only the private key may do. */
export function needsPrivateKey(what: string): ApiProblem {
  return new ApiProblem(403, {
    message: `${what} needs the private key: call it from your server with HTTP Basic, the account id as user name and the private key as password. The public key (user name, empty password) may only create instruments and charges and read charge types, charges and instruments; the private key never belongs in a browser`,
    failure_code: '05.03.0000',
    failure_description: designationOf('05.03.0000'),
  })
}

/**
 * A charge as the key that asked may read it: the public key, which every checkout page shows,
 * reads only {@link publicChargeFields}; the merchant's fields stay on its server.
 */
export function chargeAsSeenBy(
  credential: 'public' | 'private',
  charge: Charge,
): Charge | PublicCharge {
  if (credential === 'private') return charge
  return Object.fromEntries(
    publicChargeFields.map((field) => [field, charge[field]]),
  ) as unknown as PublicCharge
}
