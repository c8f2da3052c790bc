import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ChargekitError as BaseError } from '@chargekit/errors'
import { buildSync } from 'esbuild'
import { afterAll, describe, expect, it } from 'vitest'
import * as esm from '../src/index'

const folder = mkdtempSync(join(tmpdir(), 'chargekit-client-cjs-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** The client as a CommonJS bundle with its own copy of every class, as a dual-package app loads it. */
function loadCommonJsCopy(): typeof esm {
  const outfile = join(folder, 'index.cjs')
  buildSync({
    entryPoints: [join(import.meta.dirname, '..', 'src', 'index.ts')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    conditions: ['@chargekit/source'],
    outfile,
    logLevel: 'silent',
  })
  return createRequire(import.meta.url)(outfile)
}

describe('errors across the ESM and CommonJS builds', () => {
  it('a NotFoundError thrown by one copy is instanceof the other copy’s classes', () => {
    const cjs = loadCommonJsCopy()
    expect(cjs.NotFoundError).not.toBe(esm.NotFoundError)
    const details = {
      status: 404,
      code: undefined,
      category: undefined,
      designation: undefined,
      body: {},
      requestId: undefined,
      idempotencyKey: undefined,
      method: 'GET',
      path: '/charges/ch_1',
      headers: new Headers(),
      attempts: 1,
    }
    const fromCommonJs = new cjs.NotFoundError('Not found', details)
    expect(fromCommonJs instanceof esm.NotFoundError).toBe(true)
    expect(fromCommonJs instanceof esm.ApiError).toBe(true)
    expect(fromCommonJs instanceof esm.ChargekitError).toBe(true)
    expect(fromCommonJs instanceof BaseError).toBe(true)
    expect(fromCommonJs instanceof esm.PaymentError).toBe(false)
    expect(fromCommonJs instanceof esm.ConnectionError).toBe(false)
    const fromEsm = new esm.NotFoundError('Not found', details)
    expect(fromEsm instanceof cjs.NotFoundError).toBe(true)
    expect(fromEsm instanceof cjs.AuthenticationError).toBe(false)
  })
})
