/**
 * What `claim` found: `claimed` (this caller now holds the event under `lease` and must
 * `complete` it or `release` it with that lease), `in_flight` (another delivery of the same
 * event is being handled now) or `done` (the event's handlers already succeeded).
 */
export type ClaimResult =
  | { status: 'claimed'; lease: string }
  | { status: 'in_flight' }
  | { status: 'done' }

/**
 * Remembers which events were handled, so an at-least-once delivery stream has exactly-once
 * effects. Back it with Redis, a SQL table, etc. to share it between processes; every method may
 * be synchronous or return a promise.
 */
export interface DeliveryStore {
  /**
   * Atomically claims `eventId` for `ttlMs` milliseconds. An expired claim (its holder crashed
   * or hung) counts as free, so an event is never blocked for longer than `ttlMs`. Every claim
   * gets a `lease` no earlier claim of the event had: it fences `release`.
   */
  claim(eventId: string, ttlMs: number): ClaimResult | Promise<ClaimResult>
  /**
   * Marks the event as done: later deliveries of it are acknowledged without running. Not fenced:
   * the handlers' effects happened even when the claim expired meanwhile, and recording that
   * keeps a later delivery from repeating them.
   */
  complete(eventId: string): void | Promise<void>
  /**
   * Drops the claim made under `lease` after a failure, so the service's next retry runs the
   * handlers again. Must do nothing when the event's claim now has another lease (it expired and
   * another delivery took it over) or the event is done: freeing that claim would let a third
   * delivery run the event while the second still runs it.
   */
  release(eventId: string, lease: string): void | Promise<void>
}
