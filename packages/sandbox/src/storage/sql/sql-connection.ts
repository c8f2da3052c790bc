// A PostgreSQL connection, embedded or to a server, with one contract whichever runs: the
// sandbox keeps its durable state through it, and an app beside the sandbox (the example shop)
// keeps its own tables through it too.

/**
 * Driver contract, so callers never depend on which driver runs:
 * - `bigint` columns come back as decimal strings (exact, never floats);
 * - `timestamptz` columns come back as `Date`, `json` and `jsonb` columns as parsed JSON;
 * - parameters are strings, numbers, booleans, `null` or JSON text (cast with `::jsonb`).
 */
export type SqlParam = string | number | boolean | null

export interface SqlExecutor {
  query<Row extends object>(sql: string, params?: readonly SqlParam[]): Promise<Row[]>
  /** Runs a script of statements separated by `;`, without parameters (a migration file). */
  execute(script: string): Promise<void>
}

export interface SqlConnection extends SqlExecutor {
  /** `pglite`: embedded PostgreSQL (WASM) in this process. `postgres`: a server. */
  readonly driver: 'pglite' | 'postgres'
  /** Runs `work` in one transaction: every statement commits together or none does. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>
  close(): Promise<void>
}

/**
 * Embedded PostgreSQL (WASM) persisted in `dataDir`, or in memory without one. One process at a
 * time may open a folder: the caller makes sure of it (PGlite would corrupt it).
 */
export async function connectPglite(dataDir?: string): Promise<SqlConnection> {
  // Loaded on demand: a sandbox in memory never pays for the WASM build.
  const { PGlite, types } = await import('@electric-sql/pglite')
  // int8 as text keeps amounts and counters exact (PGlite's default would make them JS numbers).
  const db = await PGlite.create({
    parsers: { [types.INT8]: (value: string) => value },
    ...(dataDir === undefined ? {} : { dataDir }),
  })
  const executor = (target: Pick<typeof db, 'query' | 'exec'>): SqlExecutor => ({
    async query<Row extends object>(sql: string, params: readonly SqlParam[] = []) {
      return (await target.query<Row>(sql, [...params])).rows
    },
    async execute(script) {
      await target.exec(script)
    },
  })
  return {
    driver: 'pglite',
    ...executor(db),
    transaction: (work) => db.transaction((tx) => work(executor(tx))),
    close: () => db.close(),
  }
}

export interface PostgresOptions {
  /** Connections the pool opens at most. @default 10 */
  poolSize?: number
  /**
   * What to check when the server cannot be reached, for the start-up error (`check
   * DATABASE_URL`). The URL itself is never repeated: it usually carries a password.
   */
  whenUnreachable: string
}

/**
 * A PostgreSQL server through node-postgres (int8 already arrives as text there). Fails at
 * once, with the reason, when the server cannot be reached, rather than at the first query.
 */
export async function connectPostgres(
  connectionString: string,
  { poolSize = 10, whenUnreachable }: PostgresOptions,
): Promise<SqlConnection> {
  const { default: pg } = await import('pg')
  const pool = new pg.Pool({ connectionString, max: poolSize })
  // An idle client's error (the server restarting) must not crash the process; the next query
  // gets a fresh connection.
  pool.on('error', () => {})
  const probe = await pool.connect().catch(async (error: unknown) => {
    await pool.end().catch(() => {})
    throw new Error(
      `Cannot connect to the PostgreSQL database (${(error as Error).message}); ${whenUnreachable}`,
    )
  })
  probe.release()
  const executor = (target: import('pg').Pool | import('pg').PoolClient): SqlExecutor => ({
    async query<Row extends object>(sql: string, params: readonly SqlParam[] = []) {
      return (await target.query<Row & import('pg').QueryResultRow>(sql, [...params])).rows
    },
    async execute(script) {
      // Without parameters node-postgres sends PostgreSQL's simple query, which runs several
      // statements in one round trip.
      await target.query(script)
    },
  })
  return {
    driver: 'postgres',
    ...executor(pool),
    async transaction(work) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const result = await work(executor(client))
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {})
        throw error
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}
