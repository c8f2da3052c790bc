import { afterAll, describe, expect, it } from 'vitest'
import { createMemoryStore } from '../src/storage/memory-store'
import type { SqlDatabase } from '../src/storage/sql/database'
import { openSqlDatabase } from '../src/storage/sql/open-database'
import { createSqlStore } from '../src/storage/sql/sql-store'
import { releaseAbandonedClaims } from '../src/storage/sql/sql-work-queue'
import { describeStoreContract } from './store-contract'
import { freshDatabase, freshDataFolder, postgresInRun } from './store-under-test'
import { describeWorkQueueContract } from './work-queue-contract'

// One database per driver for the whole file, copies of the run's migrated templates (an
// embedded data folder, a database on the run's PostgreSQL server); every test starts from
// empty tables instead. Cleanup is registered first, so a failed start leaks nothing.
let embeddedState: Awaited<ReturnType<typeof freshDataFolder>> | undefined
let postgresState: Awaited<ReturnType<typeof freshDatabase>> | undefined
let embedded: SqlDatabase | undefined
let server: SqlDatabase | undefined
afterAll(async () => {
  await embedded?.close()
  await embeddedState?.remove()
  await server?.close()
  await postgresState?.remove()
})
embeddedState = await freshDataFolder()
embedded = await openSqlDatabase({ data: embeddedState.options.data })
postgresState = postgresInRun ? await freshDatabase() : undefined
server =
  postgresState === undefined
    ? undefined
    : await openSqlDatabase({ database: postgresState.options.database })

async function emptied(db: SqlDatabase) {
  await db.query(
    'TRUNCATE sandbox_objects, sandbox_events, sandbox_challenges, sandbox_work, sandbox_idempotency',
  )
  return { store: createSqlStore(db), close: async () => {} }
}

describeStoreContract('memory', async () => ({ store: createMemoryStore(), close: async () => {} }))

const pglite = embedded
describeStoreContract('embedded (PGlite)', () => emptied(pglite))
describeWorkQueueContract(
  'embedded (PGlite)',
  async () => ({ queue: (await emptied(pglite)).store.work, close: async () => {} }),
  { expiresClaims: true },
)

// Without a PostgreSQL server on this machine these are not registered (the run's server setup
// throws instead under CI, where they must run).
const shared = server
if (shared !== undefined) {
  describeStoreContract('PostgreSQL', () => emptied(shared))
  describeWorkQueueContract(
    'PostgreSQL',
    async () => ({ queue: (await emptied(shared)).store.work, close: async () => {} }),
    { expiresClaims: true },
  )
}

describe.skipIf(shared === undefined)('WorkQueue on PostgreSQL, claimed from two processes', () => {
  it('gives each due item to exactly one of two pools claiming at once', async () => {
    const queue = (await emptied(shared as SqlDatabase)).store.work
    const other = await openSqlDatabase({ database: postgresState?.options.database ?? '' })
    try {
      const due = 1_800_000_000_000
      await queue.add(
        Array.from({ length: 60 }, (_, index) => ({
          kind: 'lifecycle' as const,
          accountId: 'acct_claims',
          payload: { index },
          dueAt: due,
        })),
      )
      const queues = [queue, createSqlStore(other).work]
      const claims = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          queues[index % 2]?.claim('lifecycle', due, 5, 60_000),
        ),
      )
      const claimed = claims.flatMap((batch) => batch ?? []).map((work) => work.payload.index)
      expect(claimed).toHaveLength(60)
      expect(new Set(claimed).size).toBe(60)
    } finally {
      await other.close()
    }
  })

  it('takes over the claims of a process that is gone at once, and never those of a live one', async () => {
    const queue = (await emptied(shared as SqlDatabase)).store.work
    const other = await openSqlDatabase({ database: postgresState?.options.database ?? '' })
    const due = 1_800_000_000_000
    const hour = 3_600_000
    await queue.add(
      ['kept', 'orphaned'].map((tag) => ({
        kind: 'lifecycle' as const,
        accountId: 'acct_claims',
        payload: { tag },
        dueAt: due,
      })),
    )
    const [kept] = await queue.claim('lifecycle', due, 1, hour)
    const [orphaned] = await createSqlStore(other).work.claim('lifecycle', due, 1, hour)
    expect([kept?.payload.tag, orphaned?.payload.tag]).toEqual(['kept', 'orphaned'])
    // The other process is alive: its claim holds for its hour.
    expect(await queue.claim('lifecycle', due + 1, 10, hour)).toEqual([])
    await other.close()
    const taken = await queue.claim('lifecycle', due + 1, 10, hour)
    expect(taken.map((work) => work.payload.tag)).toEqual(['orphaned'])
    expect(await queue.complete(taken[0] as (typeof taken)[0])).toBe(true)
    expect(await queue.complete(kept as NonNullable<typeof kept>)).toBe(true)
  })
})

describe('WorkQueue on an embedded database, reopened', () => {
  it('puts back what the process before left claimed, due when it was', async () => {
    const queue = (await emptied(pglite)).store.work
    const due = 1_800_000_000_000
    await queue.add([
      { kind: 'delivery', accountId: 'acct_claims', payload: { tag: 'in flight' }, dueAt: due },
    ])
    const [abandoned] = await queue.claim('delivery', due, 1, 3_600_000)
    expect(abandoned).toBeDefined()
    await releaseAbandonedClaims(pglite)
    expect(await queue.nextDueAt('delivery')).toBe(due)
    const [again] = await queue.claim('delivery', due, 1, 3_600_000)
    expect(again?.payload).toEqual({ tag: 'in flight' })
    expect(await queue.complete(abandoned as NonNullable<typeof abandoned>)).toBe(false)
  })
})
