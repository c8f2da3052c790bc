import { type CheckProcessorOptions, checkProcessor } from './check-processor'

/** The two functions of a test runner the helper uses: vitest's, or any with the same shape. */
export interface TestRegistrar {
  describe(name: string, body: () => Promise<void> | void): void
  it(name: string, body: () => void, timeout?: number): void
}

/**
 * Registers one test per conformance check, in a `describe` named after the processor, for a
 * test file:
 *
 * ```ts
 * import { describe, it } from 'vitest'
 * processorTests(myProcessor, { describe, it }, { decline: { details: { code: 'REFUSE' } } })
 * ```
 *
 * The kit runs once while the file is collected (its checks run at once); each test then
 * passes or fails with its check's message. The runner is passed in, so the sandbox does not
 * depend on vitest.
 */
export function processorTests(
  processor: Parameters<typeof checkProcessor>[0],
  { describe, it }: TestRegistrar,
  options?: CheckProcessorOptions,
): void {
  describe(`processor ${String(processor?.name)}`, async () => {
    const report = await checkProcessor(processor, options)
    for (const check of report.checks) {
      it(check.name, () => {
        if (!check.ok) throw new Error(check.message)
      })
    }
  })
}
