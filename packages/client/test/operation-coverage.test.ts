import { operationTable } from '@chargekit/schemas/operations'
import { expect, it } from 'vitest'
import { createBrowserClient } from '../src/browser'
import { createClient } from '../src/index'

// The clients' methods are the operation table's: every operation a key may call has its method
// under its id (`charges.create` is `client.charges.create`), and the browser client has every
// operation the public key may call. (Pages and the contract itself take no credentials.)
const methodOf = (client: object, id: string) => {
  const [resource = '', method = ''] = id.split('.')
  return (client as Record<string, Record<string, unknown> | undefined>)[resource]?.[method]
}

it('has a method for every operation of the table that takes a key', () => {
  const client = createClient({
    baseUrl: 'http://127.0.0.1:9',
    accountId: 'acct_1',
    privateKey: 'sk_0123456789',
  })
  const browser = createBrowserClient({ baseUrl: 'http://127.0.0.1:9', publicKey: 'pk_1' })
  for (const operation of operationTable) {
    if (operation.keys === 'none') continue
    expect(typeof methodOf(client, operation.id), operation.id).toBe('function')
    if (operation.keys === 'public') {
      expect(typeof methodOf(browser, operation.id), operation.id).toBe('function')
    }
  }
})
