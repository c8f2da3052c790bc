import { AsyncLocalStorage } from 'node:async_hooks'
import type { KeyedLock } from '../../keyed-lock'
import type { SqlDatabase, SqlExecutor } from './database'

/** The transaction an async context's statements run in, while it is open. */
interface Transaction {
  /** Its statements' executor, once begun. */
  tx: SqlExecutor | undefined
  /** False once it has ended: work that outlives it falls back to the database. */
  open: boolean
  /** Callbacks to run once it commits. */
  committed: (() => void)[]
  /** A request's transaction: begun at its first write, ended by {@link AtomicWrites.asOne}. */
  request?: {
    begin(): Promise<SqlExecutor>
    /** Locks kept until the transaction has ended. */
    locks: Set<string>
    ended: Promise<void>
  }
}

/**
 * The database as the SQL store's statements see it. `reads` run in the current transaction once
 * one is open, on the database otherwise; `writes` are the same, except that in a request's
 * transaction (see {@link AtomicWrites.asOne}) the first write begins it.
 */
export interface AtomicWrites {
  reads: SqlDatabase
  writes: SqlDatabase
  /** Runs `task` so that its writes commit together or not at all (joining an open transaction). */
  atomically<T>(task: () => Promise<T>): Promise<T>
  /**
   * Runs `callback` once the writes made so far are committed: at once outside a transaction,
   * when it commits inside one (never when it rolls back).
   */
  afterCommit(callback: () => void): void
  /**
   * Runs `task`, then `finish` with its result, as one transaction: every write `task` makes,
   * whichever `atomically` blocks it goes through, commits with what `finish` writes, or none of
   * it does (also when `finish` answers false). The transaction begins at the first write, so
   * reads and lock waits before it hold no connection; locks taken in it through
   * {@link keptUntilCommit} are kept until it ends, so no other step sees the charge before it
   * commits.
   */
  asOne<T>(
    task: () => Promise<T>,
    finish: (result: T) => Promise<boolean>,
  ): Promise<{ result: T; kept: boolean }>
  /** The locks of `locks`, kept until the current request's transaction ends (if any). */
  keptUntilCommit(locks: KeyedLock): KeyedLock
}

/**
 * The transactions open in an async context, each under its {@link atomicWrites}' own key. One
 * storage for every store the process opens: before Node 24, every AsyncLocalStorage in use adds
 * a step to the creation of every promise in the process, and stays in use until disabled, so
 * one per store made a process that opens many (a test suite) slower with each.
 */
const openTransactions = new AsyncLocalStorage<ReadonlyMap<symbol, Transaction>>()

export function atomicWrites(database: SqlDatabase): AtomicWrites {
  const key = Symbol('transaction')
  const openTransaction = () => {
    const transaction = openTransactions.getStore()?.get(key)
    return transaction?.open ? transaction : undefined
  }
  /** Runs `task` in `transaction`, other stores' transactions kept as they are. */
  const within = <T>(transaction: Transaction, task: () => Promise<T>) =>
    openTransactions.run(new Map(openTransactions.getStore()).set(key, transaction), task)
  const readExecutor = (): SqlExecutor => openTransaction()?.tx ?? database
  const writeExecutor = async (): Promise<SqlExecutor> => {
    const transaction = openTransaction()
    return transaction?.tx ?? (await transaction?.request?.begin()) ?? database
  }
  const reads: SqlDatabase = {
    ...database,
    query: (sql, params) => readExecutor().query(sql, params),
    execute: (script) => readExecutor().execute(script),
    transaction: (work) => atomically(() => work(readExecutor())),
  }
  const writes: SqlDatabase = {
    ...database,
    query: async (sql, params) => (await writeExecutor()).query(sql, params),
    execute: async (script) => (await writeExecutor()).execute(script),
    transaction: (work) => atomically(async () => work(await writeExecutor())),
  }

  async function atomically<T>(task: () => Promise<T>): Promise<T> {
    const open = openTransaction()
    if (open !== undefined) {
      await open.request?.begin()
      return task()
    }
    const transaction: Transaction = { tx: undefined, open: true, committed: [] }
    const result = await database.transaction(async (tx) => {
      transaction.tx = tx
      try {
        return await within(transaction, task)
      } finally {
        transaction.open = false
      }
    })
    for (const callback of transaction.committed) callback()
    return result
  }

  return {
    reads,
    writes,
    atomically,

    afterCommit(callback) {
      const transaction = openTransaction()
      if (transaction !== undefined) transaction.committed.push(callback)
      else callback()
    },

    async asOne(task, finish) {
      let markEnded = () => {}
      const ended = new Promise<void>((resolve) => {
        markEnded = resolve
      })
      // The transaction's callback waits on `end` to commit (or on its rejection to roll back).
      let end: (error?: unknown) => void = () => {}
      let held: Promise<void> | undefined
      let beginning: Promise<SqlExecutor> | undefined
      const transaction: Transaction = {
        tx: undefined,
        open: true,
        committed: [],
        request: {
          locks: new Set(),
          ended,
          begin: () => {
            beginning ??= new Promise<SqlExecutor>((began, failed) => {
              held = database.transaction(async (tx) => {
                transaction.tx = tx
                began(tx)
                await new Promise<void>((commit, rollBack) => {
                  end = (error) => (error === undefined ? commit() : rollBack(error))
                })
              })
              held.catch(failed)
            })
            return beginning
          },
        },
      }
      try {
        const result = await within(transaction, task)
        const kept = await within(transaction, () => finish(result))
        transaction.open = false
        if (held !== undefined) {
          end(kept ? undefined : rolledBack)
          await held.catch((error: unknown) => {
            if (error !== rolledBack) throw error
          })
        }
        if (kept) for (const callback of transaction.committed) callback()
        return { result, kept }
      } catch (error) {
        transaction.open = false
        if (held !== undefined) {
          end(error)
          await held.catch(() => {})
        }
        throw error
      } finally {
        markEnded()
      }
    },

    keptUntilCommit(locks) {
      return {
        run(key, task) {
          const request = openTransaction()?.request
          if (request === undefined) return locks.run(key, task)
          // Already this request's: held until its transaction ends.
          if (request.locks.has(key)) return task()
          return new Promise((resolve, reject) => {
            locks
              .run(key, async () => {
                request.locks.add(key)
                await task().then(resolve, reject)
                await request.ended
              })
              .catch(reject)
          })
        },
      }
    },
  }
}

/** What a request's transaction is rolled back with when `finish` answers false. */
const rolledBack = new Error('rolled back: the request no longer holds its key')
