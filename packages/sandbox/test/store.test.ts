import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import { startLocalPostgres } from '../../../scripts/local-postgres'
import { createMemoryStore } from '../src/storage/memory-store'
import type { SqlDatabase } from '../src/storage/sql/database'
import { openSqlDatabase } from '../src/storage/sql/open-database'
import { createSqlStore } from '../src/storage/sql/sql-store'
import { describeStoreContract } from './store-contract'
import { describeWorkQueueContract } from './work-queue-contract'

// One database per driver for the whole file (opening one takes seconds); every test starts
// from empty tables instead.
const folder = await mkdtemp(join(tmpdir(), 'chargekit-store-'))
const embedded = await openSqlDatabase({ data: folder })
const postgres = await startLocalPostgres()
const server =
  postgres === undefined ? undefined : await openSqlDatabase({ database: postgres.url })

afterAll(async () => {
  await embedded.close()
  await rm(folder, { recursive: true, force: true })
  await server?.close()
  await postgres?.stop()
})

async function emptied(db: SqlDatabase) {
  await db.query(
    'TRUNCATE sandbox_objects, sandbox_events, sandbox_challenges, sandbox_work, sandbox_idempotency',
  )
  return { store: createSqlStore(db), close: async () => {} }
}

describeStoreContract('memory', async () => ({ store: createMemoryStore(), close: async () => {} }))

describeStoreContract('embedded (PGlite)', () => emptied(embedded))
describeWorkQueueContract(
  'embedded (PGlite)',
  async () => ({ queue: (await emptied(embedded)).store.work, close: async () => {} }),
  { expiresClaims: true },
)

// Without a PostgreSQL server on this machine these are not registered (startLocalPostgres
// throws instead under CI, where they must run).
if (server !== undefined) {
  describeStoreContract('PostgreSQL', () => emptied(server))
  describeWorkQueueContract(
    'PostgreSQL',
    async () => ({ queue: (await emptied(server)).store.work, close: async () => {} }),
    { expiresClaims: true },
  )
}
