/**
 * The one small database interface the shop is written against. Two drivers implement it —
 * embedded PGlite (no server, no native build) and node-postgres for a real PostgreSQL — and every
 * query in the shop is plain PostgreSQL that runs unchanged on both.
 *
 * Driver contract, so callers never depend on which one runs:
 * - `bigint` columns come back as decimal strings (money is exact: minor units, never floats);
 * - `timestamptz` columns come back as `Date`, `jsonb` columns as parsed JSON;
 * - parameters are strings, numbers, booleans, `null` or pre-serialized JSON text.
 */
export type SqlParam = string | number | boolean | null

export interface SqlExecutor {
  query<Row extends object>(sql: string, params?: readonly SqlParam[]): Promise<Row[]>
}

export interface Database extends SqlExecutor {
  /** 'pglite' (embedded) or 'postgres' (DATABASE_URL); shown on the shop's footer. */
  readonly driver: 'pglite' | 'postgres'
  /** Runs `work` in one transaction: every statement commits together or none does. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>
  close(): Promise<void>
}
