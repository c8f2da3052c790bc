import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { scriptSteps } from '../script-steps'
import { createStepRunner, formatElapsed } from '../step-runner.mjs'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

/** A runner writing to a string, its logs in a new folder. */
function recordedRunner() {
  const folder = mkdtempSync(join(tmpdir(), 'chargekit-steps-'))
  folders.push(folder)
  let printed = ''
  const runner = createStepRunner({
    logDir: join(folder, 'logs'),
    out: {
      write: (text: string) => {
        printed += text
      },
    },
  })
  return { runner, printed: () => printed, logDir: join(folder, 'logs') }
}

/** A step that runs `code` in a Node.js process of its own. */
const node = (name: string, code: string) => ({
  name,
  command: process.execPath,
  args: ['-e', code],
})

describe('the step runner', () => {
  it('prints one line for a step that passes, with its time, and keeps its output in its log', async () => {
    const { runner, printed } = recordedRunner()
    const result = await runner.run(
      node('lint', "console.log('checked 721 files'); console.error('a warning nobody needs')"),
    )
    expect(result).toMatchObject({ ok: true, code: 0 })
    expect(printed()).toMatch(/^ {2}✓ lint {15}\s+\d+\.\d s\n$/)
    expect(readFileSync(result.log, 'utf8')).toBe('checked 721 files\na warning nobody needs\n')
  })

  it('shows the lines `keep` matches under a step that passed, and nothing else of its output', async () => {
    const { runner, printed } = recordedRunner()
    await runner.run({
      ...node(
        'test',
        "console.log(' ✓ 300 files'); console.log('\\u001b[2m   Duration \\u001b[22m 52.3s'); console.log('Tests: 2456 passed, 0 failed, 3 skipped')",
      ),
      keep: /^(Tests: \d+ passed|\s*Duration\s)/,
    })
    const lines = printed().trimEnd().split('\n')
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(/^ {2}✓ test/)
    expect(lines.slice(1)).toEqual([
      '      Duration  52.3s',
      '      Tests: 2456 passed, 0 failed, 3 skipped',
    ])
  })

  it('prints the whole output of a step that fails, with its exit code and its log', async () => {
    const { runner, printed, logDir } = recordedRunner()
    const result = await runner.run(
      node(
        'typecheck',
        "console.log('src/a.ts(1,1): error TS2322'); console.error('found 1 error'); process.exit(3)",
      ),
    )
    expect(result).toMatchObject({ ok: false, code: 3 })
    const [line, ...output] = printed().trimEnd().split('\n')
    expect(line).toMatch(/^ {2}✗ typecheck .* exit 3, log \S+typecheck\.log$/)
    expect(output.slice(1, -1)).toEqual(['src/a.ts(1,1): error TS2322', 'found 1 error'])
    expect(existsSync(join(logDir, 'typecheck.log'))).toBe(true)
  })

  it('fails a step whose command does not exist, saying so', async () => {
    const { runner, printed } = recordedRunner()
    const result = await runner.run({ name: 'missing', command: 'chargekit-no-such-command' })
    expect(result).toMatchObject({ ok: false, code: 127 })
    expect(printed()).toContain(
      'Could not run chargekit-no-such-command: spawn chargekit-no-such-command ENOENT',
    )
  })

  it('words times as seconds, then minutes and seconds', () => {
    expect(formatElapsed(12.34)).toBe('12.3 s')
    expect(formatElapsed(252.9)).toBe('4 min 12 s')
    expect(formatElapsed(3605)).toBe('60 min  5 s')
  })
})

describe('the test command’s steps', () => {
  it('are the scripts test:node chains in package.json, each a step of its own', () => {
    const { scripts } = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as { scripts: Record<string, string> }
    expect(scriptSteps(scripts, 'test:node')).toEqual([
      'lint',
      'typecheck',
      'build',
      'check:packages',
      'test',
      'test:properties',
      'test:contract',
      'test:release',
    ])
  })

  it('keeps a script of other commands whole, and refuses a script that does not exist', () => {
    const scripts = { all: 'pnpm one && pnpm run two', one: 'tsc && vitest', two: 'biome check .' }
    expect(scriptSteps(scripts, 'all')).toEqual(['one', 'two'])
    expect(scriptSteps({ chain: 'pnpm one && pnpm gone', one: 'x' }, 'chain')).toEqual(['chain'])
    expect(() => scriptSteps(scripts, 'three')).toThrow('package.json has no script "three"')
  })
})
