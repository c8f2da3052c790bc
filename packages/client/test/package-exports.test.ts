import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import buildConfig from '../tsup.config'

const packageJson = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'),
)

describe('package entry points', () => {
  it('point import and require at the files the tsup build emits', () => {
    // One build config (not an array or a function), so its options can be read directly.
    expect(typeof buildConfig).toBe('object')
    const options = buildConfig as Exclude<
      typeof buildConfig,
      unknown[] | ((...args: never) => unknown)
    >
    expect(options.entry).toEqual([
      'src/index.ts',
      'src/index.node.ts',
      'src/browser.ts',
      'src/node.ts',
    ])
    expect(options.format).toEqual(expect.arrayContaining(['esm', 'cjs']))
    expect(options.dts).toBe(true)
    // In a "type": "module" package tsup writes ESM as index.js / index.d.ts and CommonJS as
    // index.cjs / index.d.cts.
    expect(packageJson.type).toBe('module')
    const entry = (name: string) => ({
      import: { types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` },
      require: { types: `./dist/${name}.d.cts`, default: `./dist/${name}.cjs` },
    })
    // Node loads the variant whose default transport is node:http; every other runtime the
    // web-standard entry.
    expect(packageJson.exports['.']).toEqual({
      '@chargekit/source': { node: './src/index.node.ts', default: './src/index.ts' },
      node: entry('index.node'),
      ...entry('index'),
    })
    for (const [subpath, name] of [
      ['./browser', 'browser'],
      ['./node', 'node'],
    ]) {
      expect(packageJson.exports[subpath as string]).toEqual({
        '@chargekit/source': `./src/${name}.ts`,
        ...entry(name as string),
      })
    }
    expect(packageJson.main).toBe(packageJson.exports['.'].require.default)
    // Resolvers without `exports` support (TypeScript's node10) find the subpath through the
    // package.json in its folder.
    for (const name of ['browser', 'node']) {
      const stub = JSON.parse(
        readFileSync(join(import.meta.dirname, '..', name, 'package.json'), 'utf8'),
      )
      expect(stub).toMatchObject({ main: `../dist/${name}.cjs`, types: `../dist/${name}.d.cts` })
      expect(packageJson.files).toContain(name)
    }
  })
})
