// A table generated from code into a Markdown page, between two comment markers, and read back
// from the page by the test that holds the page to the code. Biome lays the table out when it
// formats the page, so it is compared cell by cell, whatever its padding.

/** Where a generated table sits in its page. */
export interface TableMarkers {
  readonly start: string
  readonly end: string
}

/** The table's rows as the page holds them, header first, each a list of trimmed cells. */
export function tableRowsOf(page: string, markers: TableMarkers): string[][] {
  const start = page.indexOf(markers.start)
  const end = page.indexOf(markers.end)
  return page
    .slice(start + markers.start.length, end)
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s-|]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    )
}

/** The page with `rows` (header first) as its table, between the markers. */
export function withTable(
  page: string,
  markers: TableMarkers,
  rows: readonly (readonly string[])[],
  pageName: string,
): string {
  const start = page.indexOf(markers.start)
  const end = page.indexOf(markers.end)
  if (start < 0 || end < start) throw new Error(`${pageName} has lost its table markers`)
  const [header = [], ...body] = rows
  const table = [header, header.map(() => '---'), ...body]
    .map((row) => `| ${row.join(' | ')} |`)
    .join('\n')
  return `${page.slice(0, start + markers.start.length)}\n\n${table}\n\n${page.slice(end)}`
}
