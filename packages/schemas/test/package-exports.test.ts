import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import buildConfig from '../tsup.config'

const packageRoot = join(import.meta.dirname, '..')
const readJson = (path: string) => JSON.parse(readFileSync(join(packageRoot, path), 'utf8'))
const packageJson = readJson('package.json')

describe('package entry points', () => {
  it('point import and require at the files the tsup build emits', () => {
    const options = buildConfig as Exclude<
      typeof buildConfig,
      unknown[] | ((...args: never) => unknown)
    >
    expect(options.entry).toEqual([
      'src/index.ts',
      'src/idempotency-key.ts',
      'src/event-objects.ts',
      'src/response-checks.ts',
      'src/operations.ts',
      'src/openapi.ts',
    ])
    for (const [subpath, name] of [
      ['.', 'index'],
      ['./idempotency-key', 'idempotency-key'],
      ['./event-objects', 'event-objects'],
      ['./response-checks', 'response-checks'],
      ['./operations', 'operations'],
      ['./openapi', 'openapi'],
    ] as const) {
      expect(packageJson.exports[subpath]).toEqual({
        '@chargekit/source': `./src/${name}.ts`,
        import: { types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` },
        require: { types: `./dist/${name}.d.cts`, default: `./dist/${name}.cjs` },
      })
    }
    // Resolvers without `exports` support (TypeScript's node10) find a subpath through the
    // package.json in its folder.
    for (const name of [
      'idempotency-key',
      'event-objects',
      'response-checks',
      'operations',
      'openapi',
    ]) {
      expect(readJson(`${name}/package.json`)).toMatchObject({
        main: `../dist/${name}.cjs`,
        types: `../dist/${name}.d.cts`,
      })
      expect(packageJson.files).toContain(name)
    }
  })

  it.each(['idempotency-key', 'event-objects'])(
    'keep the %s entry free of imports, so browser bundles get no zod',
    (name) => {
      const source = readFileSync(join(packageRoot, `src/${name}.ts`), 'utf8')
      expect(source).not.toMatch(/^\s*import\b|\brequire\(/m)
    },
  )

  it.each([
    ['response-checks', 'src/shape-check.ts'],
    ['operations', 'src/operation.ts'],
  ])('keep the %s entry and all it imports free of zod', async (name, inner) => {
    const { metafile } = await build({
      entryPoints: [`src/${name}.ts`],
      absWorkingDir: packageRoot,
      bundle: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
    })
    const inputs = Object.keys(metafile.inputs)
    expect(inputs).toContain(inner)
    expect(inputs.filter((path) => path.includes('node_modules/zod/'))).toEqual([])
  })
})
