/**
 * The kit's receiver under its old path, for dashboard-fixtures.ts only. Delete this file once
 * it imports the kit.
 */
export type { Receiver } from '../src/testing/index'
export { startReceiver } from '../src/testing/index'
