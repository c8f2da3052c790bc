/** What a command writes to: stdout for results, stderr for notes and errors. */
export interface Terminal {
  /** Colours on: stdout is a terminal and `NO_COLOR` is unset. */
  readonly style: Style
  /** One line of results on stdout. */
  line(text?: string): void
  /** One JSON document on stdout: the whole result of a `--json` command. */
  json(value: unknown): void
  /** One line on stderr: progress, warnings and errors, kept out of piped results. */
  note(text: string): void
}

export interface Style {
  bold(text: string): string
  dim(text: string): string
  green(text: string): string
  red(text: string): string
  yellow(text: string): string
}

export interface TerminalStreams {
  stdout: { write(text: string): unknown; isTTY?: boolean }
  stderr: { write(text: string): unknown }
  env: Readonly<Record<string, string | undefined>>
}

/** Colour follows https://no-color.org: any non-empty `NO_COLOR` turns it off. */
export function createTerminal({ stdout, stderr, env }: TerminalStreams): Terminal {
  const colored = stdout.isTTY === true && (env.NO_COLOR ?? '') === ''
  return {
    style: colored ? ansiStyle : plainStyle,
    line: (text = '') => stdout.write(`${text}\n`),
    json: (value) => stdout.write(`${JSON.stringify(value, null, 2)}\n`),
    note: (text) => stderr.write(`${text}\n`),
  }
}

const sgr = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`
const ansiStyle: Style = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  green: sgr(32, 39),
  red: sgr(31, 39),
  yellow: sgr(33, 39),
}
const same = (text: string) => text
const plainStyle: Style = { bold: same, dim: same, green: same, red: same, yellow: same }

/**
 * Rows as aligned columns under a header. Widths are measured on the plain text; `paint` colours
 * a cell after padding, so escape codes never skew the alignment.
 */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  paint: (column: number, text: string) => string = (_, text) => text,
): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  )
  const render = (cells: readonly string[], painter: (column: number, text: string) => string) =>
    cells
      .map((cell, column) =>
        painter(column, column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)),
      )
      .join('  ')
      .trimEnd()
  return [render(header, (_, text) => text), ...rows.map((row) => render(row, paint))]
}
