import { randomUUID } from 'node:crypto'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { atomicWrites } from '../src/storage/sql/atomic-writes'
import { openSqlDatabase } from '../src/storage/sql/open-database'
import { openPostgresDatabase } from '../src/storage/sql/postgres-database'
import { createDatabase } from './postgres-server'
import { type FreshState, freshDataFolder } from './store-under-test'

const states: FreshState[] = []
afterAll(async () => {
  for (const state of states) await state.remove()
})

describe('openSqlDatabase({ data })', () => {
  // A copy of an existing folder: opening one costs a second, creating one (store.test.ts
  // does) several. That committed writes outlive the process, even one killed with SIGKILL, is
  // proven on the same folders by durability.e2e.test.ts.
  it('keeps what a committed transaction wrote, exactly, and nothing of a failed one', async () => {
    const state = await freshDataFolder()
    states.push(state)
    const db = await openSqlDatabase({ data: state.options.data as string })
    await db.query('CREATE TABLE notes (id text PRIMARY KEY, amount bigint NOT NULL)')
    await db.transaction(async (tx) => {
      await tx.query('INSERT INTO notes VALUES ($1, $2)', ['kept', '9007199254740993'])
    })
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO notes VALUES ($1, $2)', ['rolled-back', 1])
        throw new Error('abandoned')
      }),
    ).rejects.toThrow('abandoned')
    expect(await db.query('SELECT id, amount FROM notes')).toEqual([
      { id: 'kept', amount: '9007199254740993' },
    ])
    await db.close()
  }, 30_000)
})

describe.skipIf(inject('postgresUrl') === undefined)('atomicWrites', () => {
  it("keeps each one's transaction apart when one opens inside another's", async () => {
    const created = await createDatabase(
      inject('postgresUrl') as string,
      `atomic_${randomUUID().slice(0, 8)}`,
    )
    const db = await openPostgresDatabase(created.url)
    try {
      await db.query('CREATE TABLE notes (id text PRIMARY KEY)')
      // Two stores' views of one database (a pool): the inner one's transaction commits, the
      // outer one's rolls back with every write it made, also those made inside the inner one.
      const outer = atomicWrites(db)
      const inner = atomicWrites(db)
      const note = (writes: typeof outer, id: string) =>
        writes.writes.query('INSERT INTO notes VALUES ($1)', [id])
      await expect(
        outer.atomically(async () => {
          await note(outer, 'outer before')
          await inner.atomically(async () => {
            await note(inner, 'inner')
            await note(outer, 'outer within inner')
          })
          throw new Error('abandoned')
        }),
      ).rejects.toThrow('abandoned')
      expect(await db.query('SELECT id FROM notes')).toEqual([{ id: 'inner' }])
    } finally {
      await db.close()
      await created.drop()
    }
  }, 30_000)
})
