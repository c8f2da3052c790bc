import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildSync } from 'esbuild'
import { afterAll, describe, expect, it } from 'vitest'
import { ChargekitError, encodeTestAmount, TestAmountError } from './index'

const folder = mkdtempSync(join(tmpdir(), 'chargekit-errors-cjs-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** This package as a CommonJS build of its own: a second copy of every class, as in a dual-package app. */
function loadCommonJsCopy(): typeof import('./index') {
  const outfile = join(folder, 'index.cjs')
  buildSync({
    entryPoints: [join(import.meta.dirname, 'index.ts')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    outfile,
    logLevel: 'silent',
  })
  return createRequire(import.meta.url)(outfile)
}

class UnrelatedError extends Error {
  override name = 'TestAmountError'
}

describe('ChargekitError', () => {
  it('is the base of what the package throws, by class and by name', () => {
    const thrown = (() => {
      try {
        encodeTestAmount('99.99.9999' as never, 'charge')
      } catch (error) {
        return error
      }
    })()
    expect(thrown).toBeInstanceOf(TestAmountError)
    expect(thrown).toBeInstanceOf(ChargekitError)
    expect(thrown).toBeInstanceOf(Error)
    expect((thrown as Error).name).toBe('TestAmountError')
  })

  it('holds across copies of the package: a CommonJS build and this one', () => {
    const copy = loadCommonJsCopy()
    expect(copy.TestAmountError).not.toBe(TestAmountError)
    const fromCopy = new copy.TestAmountError('bad', { argument: 'code', value: 1 })
    expect(fromCopy instanceof TestAmountError).toBe(true)
    expect(fromCopy instanceof ChargekitError).toBe(true)
    const fromHere = new TestAmountError('bad', { argument: 'code', value: 1 })
    expect(fromHere instanceof copy.TestAmountError).toBe(true)
    expect(fromHere instanceof copy.ChargekitError).toBe(true)
  })

  it('is not fooled by other errors of the same name, nor by non-objects', () => {
    expect(new UnrelatedError() instanceof TestAmountError).toBe(false)
    expect(new UnrelatedError() instanceof ChargekitError).toBe(false)
    expect(new ChargekitError('base') instanceof TestAmountError).toBe(false)
    expect((null as unknown) instanceof ChargekitError).toBe(false)
    expect(('TestAmountError' as unknown) instanceof ChargekitError).toBe(false)
  })
})
