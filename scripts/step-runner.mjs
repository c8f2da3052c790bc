// Runs the steps of a long command (setup, the test command) one line each: a step's output goes
// to its log file and is printed whole only when the step fails. Plain JavaScript with no
// dependency, so setup.mjs runs it on a machine where nothing is installed yet.
import { spawn } from 'node:child_process'
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs'
import { join, relative } from 'node:path'

/** Where names end and times begin on a step's line. */
const nameWidth = 18

/** `12.3 s`, or `4 min 12 s` from a minute on. */
export function formatElapsed(seconds) {
  if (seconds < 60) return `${seconds.toFixed(1)} s`
  return `${Math.floor(seconds / 60)} min ${String(Math.floor(seconds % 60)).padStart(2, ' ')} s`
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape sequences of terminal colours
const ansiCodes = /\u001b\[[0-9;]*[A-Za-z]/g

/**
 * The banner V8 prints before it aborts the process on one of its own internal checks
 * (`# Fatal error in …`, then `# Check failed: …`): Node.js itself crashed, not a test.
 */
const v8FatalError = /^# Fatal error in [^\n]*\n# ([^\n]+)$/m

/**
 * A runner writing to `out` (process.stdout by default), the steps' logs in `logDir` (emptied
 * first). On a terminal (`live`), the running step's line counts its seconds.
 */
export function createStepRunner({ logDir, out = process.stdout, live = out.isTTY === true }) {
  rmSync(logDir, { recursive: true, force: true })
  mkdirSync(logDir, { recursive: true })
  const line = (mark, name, seconds, note = '') =>
    `  ${mark} ${name.padEnd(nameWidth)} ${formatElapsed(seconds).padStart(10)}${note}`

  return {
    /** A line of its own above the next steps, such as the Node.js version they run on. */
    heading(text) {
      out.write(`${text}\n`)
    },

    /** A line below the steps, not about one of them. */
    note(text) {
      out.write(`  ${text}\n`)
    },

    /**
     * Runs `command` with `args` (no shell), its stdout and stderr into `<logDir>/<logName>.log`;
     * resolves to `{ ok, code, seconds, log }`. On success the step's line, then the lines of
     * its output that `keep` matches (a test run's summary); on failure the line and the whole
     * output. With `rerunAfterV8Crash`, a step whose process V8 aborted runs once more, after a
     * line saying so; the crashed run's output stays in `<logName>-v8-crash.log`.
     */
    async run({
      name,
      command,
      args = [],
      env = process.env,
      cwd,
      keep,
      logName = name,
      rerunAfterV8Crash = false,
    }) {
      const log = join(logDir, `${logName.replace(/[^\w.-]+/g, '-')}.log`)
      const started = performance.now()
      const elapsed = () => (performance.now() - started) / 1000
      const ticker = live
        ? setInterval(() => out.write(`\r\u001b[2K${line('…', name, elapsed())}`), 1000)
        : undefined
      if (live) out.write(line('…', name, 0))
      let code = await runLogged(command, args, { env, cwd }, log)
      const crash =
        code !== 0 && rerunAfterV8Crash ? v8FatalError.exec(readFileSync(log, 'utf8')) : null
      if (crash !== null) {
        const crashed = log.replace(/\.log$/, '-v8-crash.log')
        renameSync(log, crashed)
        if (live) out.write('\r\u001b[2K')
        out.write(
          `  ! ${name}: Node.js crashed inside V8 (${crash[1]}), which is no step failing: running it once more (the crashed run's log: ${shown(crashed)})\n`,
        )
        code = await runLogged(command, args, { env, cwd }, log)
      }
      clearInterval(ticker)
      const seconds = elapsed()
      const ok = code === 0
      if (live) out.write('\r\u001b[2K')
      const where = shown(log)
      if (ok) {
        out.write(`${line('✓', name, seconds)}\n`)
        if (keep !== undefined) {
          for (const kept of readLines(log).filter((text) => keep.test(text))) {
            out.write(`      ${kept.trim()}\n`)
          }
        }
      } else {
        out.write(`${line('✗', name, seconds, `  exit ${code}, log ${where}`)}\n`)
        out.write(`──── ${name}: its output ────\n${readFileSync(log, 'utf8').trimEnd()}\n`)
        out.write(`──── end of ${name} (${where}) ────\n`)
      }
      return { ok, code, seconds, log }
    },
  }
}

/** The exit code of `command`, its output written to `log`; 127 when it could not start. */
function runLogged(command, args, options, log) {
  const fd = openSync(log, 'w')
  return new Promise((resolve) => {
    let settled = false
    const settle = (code, problem) => {
      if (settled) return
      settled = true
      closeSync(fd)
      if (problem !== undefined) appendFileSync(log, `${problem}\n`)
      resolve(code)
    }
    const child = spawn(command, args, { ...options, stdio: ['ignore', fd, fd] })
    child.once('error', (error) => settle(127, `Could not run ${command}: ${error.message}`))
    child.once('close', (code, signal) =>
      settle(code ?? 1, signal === null ? undefined : `Stopped by ${signal}`),
    )
  })
}

/** A log's path relative to the working folder when it is inside it, else whole. */
function shown(log) {
  const nearby = relative(process.cwd(), log)
  return nearby.startsWith('..') ? log : nearby
}

function readLines(log) {
  return readFileSync(log, 'utf8').replace(ansiCodes, '').split('\n')
}
