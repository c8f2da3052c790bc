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

/**
 * A step whose first `crashes` runs end as a V8 abort does (its banner on stderr, exit code 133
 * for SIGTRAP), and whose next run passes; each run adds an `x` to the file `runs`.
 */
function crashingStep(name: string, runs: string, crashes: number) {
  return node(
    name,
    `const fs = require('node:fs')
     fs.appendFileSync(${JSON.stringify(runs)}, 'x')
     const run = fs.readFileSync(${JSON.stringify(runs)}, 'utf8').length
     if (run <= ${crashes}) {
       console.error('#\\n# Fatal error in , line 0\\n# Check failed: jit_page_->allocations_.erase(addr) == 1.\\n#')
       process.exit(133)
     }
     console.log('run ' + run + ' passed')`,
  )
}

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

  it('runs a step once more when V8 aborted its process, saying so, and keeps the crashed log', async () => {
    const { runner, printed, logDir } = recordedRunner()
    const runs = join(logDir, '..', 'runs')
    const result = await runner.run({
      ...crashingStep('test', runs, 1),
      logName: 'node24-test',
      rerunAfterV8Crash: true,
    })
    expect(result).toMatchObject({ ok: true, code: 0 })
    expect(readFileSync(runs, 'utf8')).toBe('xx')
    const [note, line] = printed().trimEnd().split('\n')
    expect(note).toBe(
      `  ! test: Node.js crashed inside V8 (Check failed: jit_page_->allocations_.erase(addr) == 1.), which is no step failing: running it once more (the crashed run's log: ${join(logDir, 'node24-test-v8-crash.log')})`,
    )
    expect(line).toMatch(/^ {2}✓ test /)
    expect(readFileSync(join(logDir, 'node24-test-v8-crash.log'), 'utf8')).toContain(
      '# Check failed',
    )
    expect(readFileSync(result.log, 'utf8')).toBe('run 2 passed\n')
  })

  it('reruns a crashed step once only, and never a step that failed on its own or did not ask', async () => {
    const { runner, printed, logDir } = recordedRunner()
    const twice = join(logDir, '..', 'twice')
    const crashedTwice = await runner.run({
      ...crashingStep('a', twice, 2),
      rerunAfterV8Crash: true,
    })
    expect(crashedTwice).toMatchObject({ ok: false, code: 133 })
    expect(readFileSync(twice, 'utf8')).toBe('xx')
    expect(printed()).toMatch(/✗ a .* exit 133/)

    const failing = join(logDir, '..', 'failing')
    const failed = await runner.run({
      ...node(
        'b',
        `require('node:fs').appendFileSync(${JSON.stringify(failing)}, 'x'); process.exit(1)`,
      ),
      rerunAfterV8Crash: true,
    })
    expect(failed).toMatchObject({ ok: false, code: 1 })
    expect(readFileSync(failing, 'utf8')).toBe('x')

    const unasked = join(logDir, '..', 'unasked')
    expect(await runner.run(crashingStep('c', unasked, 1))).toMatchObject({ code: 133 })
    expect(readFileSync(unasked, 'utf8')).toBe('x')
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
      'test:e2e',
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
