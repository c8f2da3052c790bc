// `@chargekit/sandbox/test-cards`: the test-card table alone, for a payment form or a test that
// lists the cards without loading the sandbox (this entry imports nothing at run time).
export type { TestCard } from './card/test-cards'
export { testCards } from './card/test-cards'
