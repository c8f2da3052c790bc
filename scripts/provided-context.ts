// What the vitest global setups and project configs hand to test files through `inject`,
// declared once so every config and test that provides or injects a value agrees on its type.
export {}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The file of a fresh PGlite database's dump (see pglite-template-setup.ts). */
    pgliteTemplate: string
    /** The data folder of a fresh PGlite database, to copy (see pglite-template-setup.ts). */
    pgliteTemplateFolder: string
    /**
     * The run's throw-away PostgreSQL server, for the projects whose global setup starts it
     * (scripts/postgres-server-setup.ts); undefined where PostgreSQL is not installed.
     */
    postgresUrl: string | undefined
  }
}
