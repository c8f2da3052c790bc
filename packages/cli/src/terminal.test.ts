import { describe, expect, it } from 'vitest'
import { createTerminal, formatTable } from './terminal'

function capture(isTTY: boolean, env: Record<string, string>) {
  let stdout = ''
  const terminal = createTerminal({
    stdout: { isTTY, write: (text: string) => (stdout += text) },
    stderr: { write: () => true },
    env,
  })
  terminal.line(terminal.style.green('ok'))
  return stdout
}

describe('createTerminal', () => {
  it('colours only a terminal, and never with NO_COLOR set', () => {
    expect(capture(true, {})).toBe('\x1b[32mok\x1b[39m\n')
    expect(capture(false, {})).toBe('ok\n')
    expect(capture(true, { NO_COLOR: '1' })).toBe('ok\n')
    // An empty NO_COLOR does not count (no-color.org).
    expect(capture(true, { NO_COLOR: '' })).toBe('\x1b[32mok\x1b[39m\n')
  })
})

describe('formatTable', () => {
  it('aligns on the plain text, colouring cells after padding', () => {
    const rows = formatTable(
      ['type', 'id'],
      [
        ['payment.success', 'ev_1'],
        ['charge.created', 'ev_22'],
      ],
      (column, text) => (column === 0 ? `<${text}>` : text),
    )
    expect(rows).toEqual([
      'type             id',
      '<payment.success>  ev_1',
      '<charge.created >  ev_22',
    ])
  })
})
