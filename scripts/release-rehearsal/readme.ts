import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * `command`, after checking that `readme` (relative to the repository) shows it as a user would
 * copy it: on a line of its own (a trailing `# comment` aside) or as inline code. The rehearsal
 * runs the READMEs' commands, so a README that changes them fails it until the rehearsal runs
 * the new ones.
 */
export function readmeCommand(root: string, readme: string, command: string): string {
  const text = readFileSync(join(root, readme), 'utf8')
  const shown =
    text.includes(`\`${command}\``) ||
    text.split('\n').some((line) => line.trim().replace(/\s+#\s.*$/, '') === command)
  if (!shown)
    throw new Error(`${readme} no longer shows \`${command}\`: rehearse what it shows now`)
  return command
}

/** The code block of `readme` that has a line `line`, without its fences. */
export function readmeCodeBlock(root: string, readme: string, line: string): string {
  const text = readFileSync(join(root, readme), 'utf8')
  for (const match of text.matchAll(/^( *)```\w*\n([\s\S]*?)^\1```$/gm)) {
    const indent = match[1] ?? ''
    const lines = (match[2] ?? '').split('\n').map((each) => each.slice(indent.length))
    if (lines.some((each) => each.trim() === line)) return lines.join('\n')
  }
  throw new Error(`${readme} has no code block with the line \`${line}\``)
}
