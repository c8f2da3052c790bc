import { randomInt } from 'node:crypto'
import { SandboxError } from '../../errors'
import type { SqlDatabase } from './database'
import { connectPostgres } from './sql-connection'

/** A PostgreSQL server shared with other sandbox processes, through node-postgres. */
export async function openPostgresDatabase(
  connectionString: string,
  poolSize = 10,
): Promise<SqlDatabase> {
  const db = await connectPostgres(connectionString, {
    poolSize,
    whenUnreachable: 'check --database',
  }).catch((error: unknown) => {
    throw new SandboxError((error as Error).message)
  })
  const { default: pg } = await import('pg')
  // Advisory locks are held by a session for a whole charge step, on their own connections: a
  // step waiting for its lock then never holds a connection its queries need, so the two pools
  // cannot starve each other.
  const lockPool = new pg.Pool({ connectionString, max: poolSize })
  lockPool.on('error', () => {})
  const presence = await holdPresence(pg, connectionString).catch(async (error: unknown) => {
    await Promise.all([db.close(), lockPool.end()])
    throw error
  })
  return {
    ...db,
    async acrossProcesses(key, task) {
      const session = await lockPool.connect()
      let released = false
      try {
        await session.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key])
        try {
          return await task()
        } finally {
          await session
            .query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key])
            .catch((error: unknown) => {
              // A session that could not unlock must not serve another step: closing it
              // releases its locks on the server.
              session.release(error as Error)
              released = true
            })
        }
      } finally {
        if (!released) session.release()
      }
    },
    claims: {
      by: presence.key,
      gone: (column) => `NOT EXISTS (SELECT 1 FROM pg_locks held
        WHERE held.locktype = 'advisory' AND held.objsubid = 2 AND held.granted
          AND held.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND held.classid = ${presenceLockClass} AND held.objid::bigint = ${column})`,
    },
    async close() {
      await Promise.all([db.close(), lockPool.end(), presence.client.end()])
    },
  }
}

/** The first key of the advisory locks that say a sandbox process is alive (any constant). */
const presenceLockClass = 0x636b7072

/**
 * Takes an advisory lock under a key of its own for as long as the process runs, on a
 * connection of its own: PostgreSQL releases it as soon as that connection ends, however the
 * process ended (a `kill -9` closes its sockets). Its claims on timed work and on
 * Idempotency-Keys carry the key, so the other processes sharing the database take them over at
 * once, not after the lease.
 */
async function holdPresence(pg: typeof import('pg').default, connectionString: string) {
  const client = new pg.Client({ connectionString })
  client.on('error', () => {})
  await client.connect()
  for (;;) {
    const key = randomInt(1, 2 ** 31)
    const [row] = (
      await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS held', [
        presenceLockClass,
        key,
      ])
    ).rows
    if (row?.held) return { client, key }
  }
}
