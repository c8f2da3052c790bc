/** One check of the conformance kit: what it tried and, when it failed, what to fix. */
export interface ProcessorCheck {
  /** `mbway: capture`, `card_onetime: test amount .30 (payment)`. */
  readonly name: string
  readonly ok: boolean
  /** What went wrong and what to change; on success, a short note of what was seen. */
  readonly message: string
  readonly durationMs: number
}

/** What {@link checkProcessor} found. `format()` (and `toString()`) prints one ✓/✗ line a check. */
export interface ProcessorReport {
  /** Every check passed. */
  readonly ok: boolean
  /** The processor's name. */
  readonly processor: string
  readonly checks: readonly ProcessorCheck[]
  format(): string
  toString(): string
}

export function processorReport(
  processor: string,
  checks: readonly ProcessorCheck[],
): ProcessorReport {
  const format = () => {
    const failed = checks.filter((check) => !check.ok).length
    const lines = checks.map((check) => {
      const mark = check.ok ? '✓' : '✗'
      const note = check.message === '' ? '' : `: ${check.message}`
      return `${mark} ${check.name} (${Math.round(check.durationMs)} ms)${note}`
    })
    const summary =
      failed === 0
        ? `processor ${processor}: all ${checks.length} checks passed`
        : `processor ${processor}: ${failed} of ${checks.length} checks failed`
    return [summary, ...lines].join('\n')
  }
  return { ok: checks.every((check) => check.ok), processor, checks, format, toString: format }
}
