import type { SqlConnection } from './sql-connection'

export type { SqlExecutor, SqlParam } from './sql-connection'

/**
 * The database the sandbox's durable state is written against: a {@link SqlConnection} (embedded
 * PGlite in a folder, `data`, or a PostgreSQL server, `database`; every statement is plain
 * PostgreSQL that runs unchanged on both) and what several sandbox processes sharing a server
 * need besides. `pglite`: one process owns the folder. `postgres`: several may share the server.
 */
export interface SqlDatabase extends SqlConnection {
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
}
