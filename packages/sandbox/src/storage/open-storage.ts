import { SandboxError } from '../errors'
import { createKeyedLock, type KeyedLock } from '../keyed-lock'
import type { SandboxLogger } from '../logger'
import { checkRetainCharges, createMemoryStore } from './memory-store'
import type { SandboxStore } from './sandbox-store'
import { atomicWrites } from './sql/atomic-writes'
import { describeLocation, openSqlDatabase } from './sql/open-database'
import { releaseAbandonedReservations } from './sql/sql-idempotency'
import { createSqlStore } from './sql/sql-store'
import { releaseAbandonedClaims } from './sql/sql-work-queue'

/** Where state lives; at most one is given, and none means a new in-memory store. */
export interface StorageOptions {
  store?: SandboxStore
  data?: string
  database?: string
  /** For the in-memory store: charges kept before the oldest is dropped. */
  retainCharges?: number
  /** Told when a database's schema is upgraded. */
  logger?: SandboxLogger
}

export interface Storage {
  store: SandboxStore
  /** Serializes the steps of one charge, across every process that shares the store. */
  locks: KeyedLock
  /** Where state lives, for people: never a password. */
  description: string
  close(): Promise<void>
}

/** Opens the store the options ask for (migrating a database), or throws saying what is wrong. */
export async function openStorage(options: StorageOptions): Promise<Storage> {
  const given = (['store', 'data', 'database'] as const).filter(
    (name) => options[name] !== undefined,
  )
  if (given.length > 1) {
    throw new SandboxError(
      `Give at most one of store, data and database (got ${given.join(' and ')}): state lives in one place`,
    )
  }
  const { data, database } = options
  if (data !== undefined) {
    const db = await openSqlDatabase({ data }, options.logger)
    // The folder is this process's alone: whatever an earlier process left in flight is free.
    await Promise.all([releaseAbandonedReservations(db), releaseAbandonedClaims(db)]).catch(
      async (error: unknown) => {
        await db.close()
        throw error
      },
    )
    return sqlStorage(db, `an embedded database in ${data}`)
  }
  if (database !== undefined) {
    return sqlStorage(
      await openSqlDatabase({ database }, options.logger),
      describeLocation({ database }),
    )
  }
  const retainCharges = checkRetainCharges(options.retainCharges)
  return {
    store: options.store ?? createMemoryStore({ retainCharges }),
    locks: createKeyedLock(),
    description:
      options.store === undefined
        ? `memory, the newest ${retainCharges.toLocaleString('en')} charges with their objects and events (retainCharges, --retain-charges N; --data DIR keeps everything); lost when the sandbox stops`
        : 'the given store',
    close: async () => {},
  }
}

function sqlStorage(db: Awaited<ReturnType<typeof openSqlDatabase>>, description: string): Storage {
  const local = createKeyedLock()
  const writes = atomicWrites(db)
  return {
    store: createSqlStore(db, writes),
    // The in-process lock first: a process then waits for other processes at most once per
    // charge, holding one lock session, however many of its own requests queue behind it. A
    // keyed request keeps its locks until its writes and answer commit.
    locks: writes.keptUntilCommit({
      run: (key, task) => local.run(key, () => db.acrossProcesses(key, task)),
    }),
    description,
    close: () => db.close(),
  }
}
