import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openSqlDatabase } from '../src/storage/sql/open-database'

const folders: string[] = []
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true })
})

describe('openSqlDatabase({ data })', () => {
  // Creating a fresh embedded database takes seconds, twice here.
  it('keeps what a committed transaction wrote across a reopen, and nothing of a failed one', {
    timeout: 30_000,
  }, async () => {
    const data = await mkdtemp(join(tmpdir(), 'chargekit-sandbox-db-'))
    folders.push(data)
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
  })
})
