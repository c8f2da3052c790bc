/**
 * The small database interface the sandbox's durable state is written against. Two drivers
 * implement it — embedded PGlite in a folder (`data`) and node-postgres for a PostgreSQL server
 * (`database`) — and every statement is plain PostgreSQL that runs unchanged on both.
 *
 * Driver contract, so callers never depend on which one runs:
 * - `bigint` columns come back as decimal strings (exact, never floats);
 * - `timestamptz` columns come back as `Date`, `jsonb` columns as parsed JSON;
 * - parameters are strings, numbers, booleans, `null` or JSON text (cast with `::jsonb`).
 */
export type SqlParam = string | number | boolean | null

export interface SqlExecutor {
  query<Row extends object>(sql: string, params?: readonly SqlParam[]): Promise<Row[]>
  /** Runs a script of statements separated by `;`, without parameters (a migration file). */
  execute(script: string): Promise<void>
}

export interface SqlDatabase extends SqlExecutor {
  /** `pglite`: one process owns the folder. `postgres`: several processes may share the server. */
  readonly driver: 'pglite' | 'postgres'
  /** Runs `work` in one transaction: every statement commits together or none does. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>
  /**
   * Runs `task` while no other process holds `key`: a PostgreSQL advisory lock, as other
   * sandbox processes may share the server. PGlite's folder belongs to one process, so there
   * it just runs `task`. Callers serialize tasks of one key within their process first, so a
   * process waits here only for other processes.
   */
  acrossProcesses<T>(key: string, task: () => Promise<T>): Promise<T>
  /**
   * Who claims timed work and Idempotency-Keys: `by` is stored with each claim this process
   * makes, and `gone(column)` is a SQL condition on the column holding a claim's `by` that holds
   * when the process that made it is gone, so its claims need not wait for their lease to end.
   */
  readonly claims: { readonly by: number; gone(column: string): string }
  close(): Promise<void>
}
