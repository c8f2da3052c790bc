/**
 * Prints one figure against its same-run baseline, and whether it meets its target, as a single
 * greppable `RESULT` line: `RESULT <name>: <value> vs <baseline> = <ratio>x (target <op> <t>) PASS`.
 */
export function reportRatio(
  name: string,
  value: number,
  baseline: number,
  target: { atLeast?: number; atMost?: number },
  unit = '',
): boolean {
  const ratio = value / baseline
  const pass =
    (target.atLeast === undefined || ratio >= target.atLeast) &&
    (target.atMost === undefined || ratio <= target.atMost)
  const goal = target.atLeast !== undefined ? `>= ${target.atLeast}` : `<= ${target.atMost}`
  console.log(
    `RESULT ${name}: ${format(value)}${unit} vs baseline ${format(baseline)}${unit} = ${ratio.toFixed(3)}x (target ${goal}) ${pass ? 'PASS' : 'MISS'}`,
  )
  return pass
}

/** Prints a figure that has no ratio target (latencies, sizes), in the same greppable form. */
export function reportFigure(name: string, value: number, unit: string) {
  console.log(`RESULT ${name}: ${format(value)} ${unit}`)
}

function format(value: number) {
  return Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 3 : 1)
}

/**
 * Prints a figure with an absolute target (a latency) beside its same-run baseline, as one
 * greppable line: `RESULT <name>: <value> vs baseline <b> (target <op> <t>) PASS`.
 */
export function reportAgainstTarget(
  name: string,
  value: number,
  baseline: number,
  target: { atLeast?: number; atMost?: number },
  unit: string,
): boolean {
  const pass =
    (target.atLeast === undefined || value >= target.atLeast) &&
    (target.atMost === undefined || value <= target.atMost)
  const goal = target.atLeast !== undefined ? `>= ${target.atLeast}` : `<= ${target.atMost}`
  console.log(
    `RESULT ${name}: ${format(value)} ${unit} vs baseline ${format(baseline)} ${unit} (target ${goal} ${unit}) ${pass ? 'PASS' : 'MISS'}`,
  )
  return pass
}
