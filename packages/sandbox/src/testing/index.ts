export { authorization } from './authorization'
export type { CheckProcessorOptions } from './check-processor'
export { checkProcessor } from './check-processor'
export { eventually } from './eventually'
export type { DeclineRecipe } from './processor-checks'
export type { ProcessorCheck, ProcessorReport } from './processor-report'
export type { TestRegistrar } from './processor-tests'
export { processorTests } from './processor-tests'
export type {
  ReceivedDelivery,
  Receiver,
  ReceiverAnswer,
  ReceiverRule,
} from './receiver'
export { startReceiver } from './receiver'
export { TestClock } from './test-clock'
export type {
  ApiAnswer,
  ApiCaller,
  SeededFlow,
  SeedOptions,
  TestSandbox,
  TestSandboxOptions,
  TestState,
} from './test-sandbox'
export { startTestSandbox, testCard } from './test-sandbox'
