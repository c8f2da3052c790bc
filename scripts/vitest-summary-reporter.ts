import type { Reporter, TestModule } from 'vitest/node'

/** One greppable line at the end of a run, so CI logs and issue notes quote the same figures. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const counts = { passed: 0, failed: 0, skipped: 0 }
    for (const testModule of testModules) {
      for (const testCase of testModule.children.allTests()) {
        const state = testCase.result().state
        if (state === 'passed') counts.passed++
        else if (state === 'failed') counts.failed++
        else counts.skipped++
      }
    }
    console.log(
      `Tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
    )
  }
}
