import { afterAll, describe, expect, it } from 'vitest'
import { openSqlDatabase } from '../src/storage/sql/open-database'
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
