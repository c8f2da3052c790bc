import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * `command`, after checking that `readme` (relative to the repository) shows it on a line of its
 * own, as a user would copy it (a trailing `# comment` aside): the rehearsal runs the READMEs'
 * commands, so a README that changes them fails it until the rehearsal runs the new ones.
 */
export function readmeCommand(root: string, readme: string, command: string): string {
  const shown = readFileSync(join(root, readme), 'utf8')
    .split('\n')
    .some((line) => line.trim().replace(/\s+#\s.*$/, '') === command)
  if (!shown)
    throw new Error(`${readme} no longer shows \`${command}\`: rehearse what it shows now`)
  return command
}

/** The code block of `readme` whose first line is `firstLine`, without its fences. */
export function readmeCodeBlock(root: string, readme: string, firstLine: string): string {
  const text = readFileSync(join(root, readme), 'utf8')
  for (const match of text.matchAll(/^( *)```\w*\n([\s\S]*?)^\1```$/gm)) {
    const indent = match[1] ?? ''
    const lines = (match[2] ?? '').split('\n').map((line) => line.slice(indent.length))
    if (lines[0]?.trim() === firstLine) return lines.join('\n')
  }
  throw new Error(`${readme} has no code block starting with \`${firstLine}\``)
}
