import type { TestSandbox } from '@chargekit/sandbox/testing'
import { isEventOfType } from '@chargekit/schemas'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Charge, type ChargekitClient, type ClientLogEntry, Page } from '../src/index'
import { chargeParams } from './support/flows'
import { onEachTransport, startClientSandbox } from './support/sandbox'

onEachTransport(({ testClient }) => {
  const total = 35
  let env: TestSandbox
  let client: ChargekitClient
  let requests: string[]
  let created: Charge[]

  beforeAll(async () => {
    env = await startClientSandbox()
    requests = []
    client = testClient(env.sandbox.url, {
      logger: (entry: ClientLogEntry) => {
        if (entry.type === 'request') requests.push(entry.url)
      },
    })
    created = []
    for (let index = 0; index < total; index++) {
      created.push(await client.charges.create(chargeParams(env.eventsUrl, { amount: index + 1 })))
    }
    requests.length = 0
  })
  afterAll(() => env.close())

  const newestFirst = () => created.map((charge) => charge.id).reverse()

  describe('list()', () => {
    it('awaits to the first page', async () => {
      const page = await client.charges.list({ per_page: 10 })
      expect(page).toBeInstanceOf(Page)
      expect(page.collection.map((charge) => charge.id)).toEqual(newestFirst().slice(0, 10))
      expect(page.pagination).toEqual({ page: 1, per_page: 10, total })
      expect(page.hasNextPage()).toBe(true)
    })

    it('iterates every item over more than three pages with for await', async () => {
      requests.length = 0
      const ids: string[] = []
      for await (const charge of client.charges.list({ per_page: 10 })) ids.push(charge.id)
      expect(ids).toEqual(newestFirst())
      expect(requests).toHaveLength(4)
      expect(requests.map((url) => new URL(url).searchParams.get('page'))).toEqual([
        '1',
        '2',
        '3',
        '4',
      ])
    })

    it('fetches lazily: nothing before it is used, and no page beyond where the loop stopped', async () => {
      requests.length = 0
      const listing = client.charges.list({ per_page: 10 })
      // An eager listing would have called fetch by now: synchronously, or in a microtask.
      await new Promise((resolve) => setImmediate(resolve))
      expect(requests).toHaveLength(0)
      let seen = 0
      for await (const _charge of listing) {
        seen += 1
        if (seen === 15) break
      }
      expect(requests).toHaveLength(2)
      // The first page is fetched once, however often the listing is awaited.
      await listing
      await listing
      expect(requests).toHaveLength(2)
    })

    it('walks pages by hand with nextPage and starts where `page` says', async () => {
      let page: Page<Charge> | undefined = await client.charges.list({ page: 2, per_page: 12 })
      const pages: number[] = []
      while (page !== undefined) {
        pages.push(page.pagination.page)
        page = await page.nextPage()
      }
      expect(pages).toEqual([2, 3])
      const rest: string[] = []
      for await (const charge of client.charges.list({ page: 3, per_page: 12 }))
        rest.push(charge.id)
      expect(rest).toEqual(newestFirst().slice(24))
    })

    it('does not repeat an item when new objects shift the pages during iteration', async () => {
      const before = newestFirst()
      const ids: string[] = []
      let inserted = false
      for await (const charge of client.charges.list({ per_page: 10 })) {
        ids.push(charge.id)
        if (!inserted) {
          inserted = true
          for (let index = 0; index < 3; index++) {
            created.push(await client.charges.create(chargeParams(env.eventsUrl)))
          }
        }
      }
      expect(new Set(ids).size).toBe(ids.length)
      expect(ids).toEqual(before)
    })

    it('iterates typed events with filters', async () => {
      const types = new Set<string>()
      let count = 0
      for await (const event of client.events.list({ type: 'charge.created', per_page: 7 })) {
        types.add(event.type)
        if (isEventOfType(event, 'charge.created')) expect(event.charge.id).toMatch(/^ch_/)
        count += 1
      }
      expect([...types]).toEqual(['charge.created'])
      expect(count).toBe(created.length)
    })

    it('collects items across pages with toArray, fetching no page past the limit', async () => {
      requests.length = 0
      const ids = (await client.charges.list({ per_page: 10 }).toArray({ limit: 15 })).map(
        (charge) => charge.id,
      )
      expect(ids).toEqual(newestFirst().slice(0, 15))
      expect(requests).toHaveLength(2)

      const all = await client.charges.list({ per_page: 50 }).toArray({ limit: 10_000 })
      expect(all.map((charge) => charge.id)).toEqual(newestFirst())

      const secondPage = await client.charges.list({ page: 2, per_page: 10 })
      const fromSecond = await secondPage.toArray({ limit: 5 })
      expect(fromSecond.map((charge) => charge.id)).toEqual(newestFirst().slice(10, 15))
    })

    it('rejects a missing or out-of-range toArray limit before sending anything', async () => {
      requests.length = 0
      const listing = client.charges.list()
      await expect(listing.toArray({ limit: 0 })).rejects.toThrow(
        'toArray: limit must be a whole number from 1 to 10000 (got 0).',
      )
      await expect(listing.toArray({ limit: 10_001 })).rejects.toThrow('(got 10001)')
      // @ts-expect-error: limit is required
      await expect(listing.toArray({})).rejects.toThrow('(got undefined)')
      expect(requests).toHaveLength(0)
    })
  })
})
