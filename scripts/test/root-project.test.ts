import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const root = new URL('../../', import.meta.url)

/** Every folder of the workspace that has tests of its own: a `vitest.config.ts`. */
function foldersWithTests(): string[] {
  const inGroups = ['packages', 'apps', 'examples'].flatMap((group) =>
    readdirSync(new URL(`${group}/`, root)).map((name) => `${group}/${name}`),
  )
  return [...inGroups, 'scripts'].filter((folder) =>
    existsSync(new URL(`${folder}/vitest.config.ts`, root)),
  )
}

describe('the root Vitest project', () => {
  // The root config lists the packages whose tests its one project runs: a package missing
  // there would have its tests silently left out of `pnpm test`.
  it('runs the tests of every folder that has a vitest.config.ts', () => {
    const rootConfig = readFileSync(new URL('vitest.config.ts', root), 'utf8')
    const folders = foldersWithTests()
    expect(folders).toContain('packages/sandbox')
    const missing = folders.filter(
      (folder) => !rootConfig.includes(`'${folder}': `) && !rootConfig.includes(`${folder},`),
    )
    expect(missing).toEqual([])
  })
})
