import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { type ConsumerApp, prepareConsumerApps, RegistryUnreachableError } from './consumer-apps'
import { charge, fullEvent } from './fixtures'

const run = promisify(execFile)
const require = createRequire(import.meta.url)

// 3.25.76 is the last zod 3.25 (3.25.0 itself was published without its build); the zod 4 app
// gets the version this repository builds and tests with.
const zodVersions = {
  'zod 3.25': '3.25.76',
  'zod 4': (require('zod/package.json') as { version: string }).version,
}

const scriptsDir = fileURLToPath(new URL('./consumer', import.meta.url))
const typescript = require.resolve('typescript/bin/tsc')
const typescriptVersion = (require('typescript/package.json') as { version: string }).version
const tsconfig = JSON.stringify({
  compilerOptions: { strict: true, module: 'nodenext', noEmit: true, skipLibCheck: false },
  files: ['types.cts', 'types.mts'],
})

let apps: ConsumerApp[] = []
let unavailable: string | undefined

beforeAll(async () => {
  try {
    apps = await prepareConsumerApps(Object.values(zodVersions))
  } catch (error) {
    if (!(error instanceof RegistryUnreachableError)) throw error
    const reason = `the npm registry is unreachable, so zod cannot be installed into the consumer apps (${error.message})`
    if (process.env.CI === 'true') {
      throw new Error(`CI=true, so the consumer tests must run, but ${reason}.`)
    }
    unavailable = reason
    console.warn(`Skipping the consumer tests: ${reason}`)
    return
  }
  const fixtures = JSON.stringify({ event: fullEvent, charge })
  await Promise.all(
    apps.map(async ({ dir }) => {
      for (const script of ['checks.cjs', 'esm.mjs', 'cjs.cjs']) {
        await copyFile(join(scriptsDir, script), join(dir, script))
      }
      await copyFile(join(scriptsDir, 'types.ts'), join(dir, 'types.cts'))
      await copyFile(join(scriptsDir, 'types.ts'), join(dir, 'types.mts'))
      await writeFile(join(dir, 'fixtures.json'), fixtures)
      await writeFile(join(dir, 'tsconfig.json'), tsconfig)
    }),
  )
}, 180_000)

function appWith(zodVersion: string, skip: (note: string) => never): ConsumerApp {
  if (unavailable !== undefined) skip(unavailable)
  const app = apps.find((candidate) => candidate.zodVersion === zodVersion)
  if (app === undefined) throw new Error(`No consumer app with zod ${zodVersion}`)
  return app
}

/** What the checks report with either zod: the same results, messages and error classes. */
const expected = {
  event: { type: 'refund.success', refund: fullEvent.refund.id },
  unknownChargeField: 'sb_1',
  minorUnits: '125050',
  eventError: {
    isSchemaValidationError: true,
    parameters: {
      created_at: [
        'Expected an ISO 8601 timestamp with a time zone offset or Z, such as "2025-01-31T12:00:00Z"',
      ],
    },
  },
  // The amount is checked although other fields failed: one answer lists every problem.
  requestProblems: {
    events_url: ['Expected an https:// URL'],
    'channels.0': [
      'Expected a channel label: the charge type, an underscore and the processor channel, such as card_onetime_no_processor',
    ],
    amount: ['Expected at most 2 decimals for USD'],
  },
  client: {
    event: fullEvent.id,
    unknownChargeField: 'sb_1',
    error: {
      name: 'ResponseValidationError',
      issues: { refund: ['Expected object, received null'] },
    },
  },
}

describe.concurrent.each(Object.entries(zodVersions))('an npm app on %s (%s)', (_, zodVersion) => {
  it('installs the packed packages on the app’s own zod, without a zod of their own', async ({
    expect,
    skip,
  }) => {
    const { dir } = appWith(zodVersion, skip)
    const zod = JSON.parse(await readFile(join(dir, 'node_modules/zod/package.json'), 'utf8'))
    expect(zod.version).toBe(zodVersion)
    const installed = await readdir(join(dir, 'node_modules/@chargekit'))
    expect(installed.sort()).toEqual(['client', 'errors', 'schemas'])
    for (const name of installed) {
      expect(existsSync(join(dir, 'node_modules/@chargekit', name, 'node_modules/zod'))).toBe(false)
    }
  })

  it.for(['esm.mjs', 'cjs.cjs'])(
    'parses, keeps unknown fields, converts money and reports problems from %s',
    async (script, { expect, skip }) => {
      const { dir } = appWith(zodVersion, skip)
      const { stdout } = await run(process.execPath, [script], { cwd: dir })
      expect(JSON.parse(stdout)).toEqual(expected)
    },
  )
})

/**
 * tsc's diagnostics for the app's `types.cts` and `types.mts`. Checking zod's own declarations
 * (needed to see ours resolve against them) takes seconds, so the answer is kept beside the
 * installed app, keyed by everything else it depends on: the app folder already is one per set of
 * packages and zod version.
 */
async function typecheck(dir: string): Promise<string> {
  const key = createHash('sha256')
    .update(await readFile(join(scriptsDir, 'types.ts')))
    .update(tsconfig)
    .update(typescriptVersion)
    .digest('hex')
    .slice(0, 16)
  const answer = join(dir, `tsc-${key}.txt`)
  if (existsSync(answer)) return readFile(answer, 'utf8')
  const { stdout } = await run(process.execPath, [typescript, '-p', dir]).catch(
    (error: { stdout: string }) => error,
  )
  await writeFile(answer, stdout)
  return stdout
}

// With zod 4 the declarations are checked by construction: they are built from sources that
// compile against it. zod 3.25's `zod/v4` types are older, so the check there is explicit.
it('compiles against the packed declarations with zod 3.25, as CommonJS and as ESM', async ({
  skip,
}) => {
  const { dir } = appWith(zodVersions['zod 3.25'], skip)
  expect(await typecheck(dir)).toBe('')
}, 30_000)
