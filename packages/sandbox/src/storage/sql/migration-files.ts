import { readdirSync, readFileSync } from 'node:fs'

/** One file of `migrations/`: its name (`0002-signing-secrets.sql`) and its SQL. */
export interface MigrationFile {
  name: string
  sql: string
}

const folder = new URL('./migrations/', import.meta.url)

/**
 * The files of `migrations/`, by name. Run from source (the tests, the example shop), they are
 * read from the folder; the published build reads them here at build time and ships them in
 * place of this module (see the sandbox's `tsup.config.ts`), so the installed package reads no
 * files at run time and a bundler that inlines it needs no assets.
 */
export function readMigrationFiles(): MigrationFile[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(new URL(name, folder), 'utf8') }))
}
