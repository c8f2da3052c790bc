import { afterAll, describe, expect, it } from 'vitest'
import { openSqlDatabase } from '../src/storage/sql/open-database'
import { type FreshState, freshDataFolder } from './store-under-test'

const states: FreshState[] = []
afterAll(async () => {
  for (const state of states) await state.remove()
})

describe('openSqlDatabase({ data })', () => {
  // A copy of an existing folder: opening one costs a second, creating one (store.test.ts
  // does) several.
  it('keeps what a committed transaction wrote across a reopen, and nothing of a failed one', async () => {
    const state = await freshDataFolder()
    states.push(state)
    const data = state.options.data as string
    const first = await openSqlDatabase({ data })
    await first.query('CREATE TABLE notes (id text PRIMARY KEY, amount bigint NOT NULL)')
    await first.transaction(async (tx) => {
      await tx.query('INSERT INTO notes VALUES ($1, $2)', ['kept', '9007199254740993'])
    })
    await expect(
      first.transaction(async (tx) => {
        await tx.query('INSERT INTO notes VALUES ($1, $2)', ['rolled-back', 1])
        throw new Error('abandoned')
      }),
    ).rejects.toThrow('abandoned')
    await first.close()

    const second = await openSqlDatabase({ data })
    expect(await second.query('SELECT id, amount FROM notes')).toEqual([
      { id: 'kept', amount: '9007199254740993' },
    ])
    await second.close()
  }, 30_000)
})
