/**
 * What `claim` found: `claimed` (this caller now owns the event and must `complete` or
 * `release` it), `in_flight` (another delivery of the same event is being handled now) or
 * `done` (the event's handlers already succeeded).
 */
export type ClaimResult = 'claimed' | 'in_flight' | 'done'

/**
 * Remembers which events were handled, so an at-least-once delivery stream has exactly-once
 * effects. Back it with Redis, a SQL table, etc. to share it between processes; every method may
 * be synchronous or return a promise.
 */
export interface DeliveryStore {
  /**
   * Atomically claims `eventId` for `ttlMs` milliseconds. An expired claim (its holder crashed
   * or hung) counts as free, so an event is never blocked for longer than `ttlMs`.
   */
  claim(eventId: string, ttlMs: number): ClaimResult | Promise<ClaimResult>
  /** Marks the claimed event as done: later deliveries of it are acknowledged without running. */
  complete(eventId: string): void | Promise<void>
  /** Drops the claim after a failure, so the service's next retry runs the handlers again. */
  release(eventId: string): void | Promise<void>
}
