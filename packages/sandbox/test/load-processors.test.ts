import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadProcessors } from '../src/load-processors'

const packageDir = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '')
const fixture = (name: string) => `./test/fixtures/processors/${name}`

describe('loadProcessors (--processor)', () => {
  it("takes a module's named `processors`, or its default export, by path or package name", async () => {
    const named = await loadProcessors([fixture('house-bank.mjs')], packageDir)
    expect(named.map((processor) => processor.name)).toEqual(['house_bank', 'house_wallet'])
    // An absolute path needs no directory.
    const byAbsolutePath = await loadProcessors(
      [`${packageDir}/test/fixtures/processors/house-bank.mjs`],
      '/',
    )
    expect(byAbsolutePath).toHaveLength(2)
  })

  it('resolves a package name as an import from the directory would: nearest node_modules upwards, import condition', async () => {
    // From a folder below the one whose node_modules holds the package.
    const below = `${packageDir}/test/fixtures/processors/below`
    const [dual] = await loadProcessors(['@acme/dual-processor'], below)
    // The ES module build, not the CommonJS one the package also has.
    expect(dual?.descriptor).toBe('DUAL*ESM')
    const wallet = await loadProcessors(['@acme/dual-processor/wallet'], below)
    expect(wallet.map((processor) => processor.name)).toEqual(['dual_wallet'])
    await expect(loadProcessors(['@acme/dual-processor/ledger'], below)).rejects.toThrow(
      `--processor @acme/dual-processor/ledger: package "@acme/dual-processor" (${packageDir}/test/fixtures/processors/node_modules/@acme/dual-processor) exports no "./ledger" for import`,
    )
  })

  it('names what it tried when a module is missing, exports no processor or an invalid one', async () => {
    await expect(loadProcessors([fixture('missing.mjs')], packageDir)).rejects.toThrow(
      `--processor ./test/fixtures/processors/missing.mjs: no file at ${packageDir}/test/fixtures/processors/missing.mjs`,
    )
    await expect(loadProcessors(['@acme/missing-processor'], packageDir)).rejects.toThrow(
      `--processor @acme/missing-processor: no package "@acme/missing-processor" in node_modules from ${packageDir} upwards; install it, or give a path such as ./missing-processor.js`,
    )
    await expect(loadProcessors([fixture('no-export.mjs')], packageDir)).rejects.toThrow(
      '--processor ./test/fixtures/processors/no-export.mjs: the module exports no processor (it exports houseBankName): export default a processor or an array of them, or export const processors = [...]',
    )
    // A package that resolves from the directory but is no processor.
    await expect(loadProcessors(['zod'], packageDir)).rejects.toThrow(
      /^--processor zod: the module exports no processor \(it exports .*\bz\b.*\)/,
    )
    await expect(loadProcessors([fixture('misnamed.mjs')], packageDir)).rejects.toThrow(
      '--processor ./test/fixtures/processors/misnamed.mjs: Processor name "House Bank" is invalid',
    )
  })
})
