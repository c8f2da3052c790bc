import type { IdempotencyRecords } from './idempotency-records'
import type {
  ChallengeRecord,
  EventFilter,
  EventUpdate,
  ObjectFilter,
  ObjectKind,
  ObjectKinds,
  PageRequest,
  PageResult,
  StoredEvent,
} from './records'
import type { NewWork, WorkQueue } from './work-queue'

/**
 * Where the sandbox keeps its state, per account. Asynchronous so a durable implementation
 * (a database) can stand in for the in-memory one without touching the lifecycle. Lists are
 * newest first. The lifecycle serializes the steps of one charge, so implementations need no
 * locking of their own beyond atomic single calls.
 */
export interface SandboxStore {
  getObject<K extends ObjectKind>(
    accountId: string,
    kind: K,
    id: string,
  ): Promise<ObjectKinds[K] | undefined>
  /** Inserts or replaces (by `id`) an object; a replaced object keeps its place in lists. */
  putObject<K extends ObjectKind>(accountId: string, kind: K, object: ObjectKinds[K]): Promise<void>
  listObjects<K extends ObjectKind>(
    accountId: string,
    kind: K,
    filter: ObjectFilter,
    page: PageRequest,
  ): Promise<PageResult<ObjectKinds[K]>>
  /**
   * Stores the event together with the timed work it starts (its delivery), in one write: an
   * event acknowledged to the caller is never left without its delivery after a crash.
   */
  addEvent(accountId: string, event: StoredEvent, work?: readonly NewWork[]): Promise<void>
  getEvent(accountId: string, id: string): Promise<StoredEvent | undefined>
  /** Applies `update` and returns the event as it now is, or undefined for an unknown id. */
  updateEvent(accountId: string, id: string, update: EventUpdate): Promise<StoredEvent | undefined>
  listEvents(
    accountId: string,
    filter: EventFilter,
    page: PageRequest,
  ): Promise<PageResult<StoredEvent>>
  putChallenge(challenge: ChallengeRecord): Promise<void>
  /** Challenges are looked up by instrument id alone: the 3DS page carries no credentials. */
  getChallenge(instrumentId: string): Promise<ChallengeRecord | undefined>
  deleteChallenge(instrumentId: string): Promise<void>
  /**
   * Runs `task` so that its writes through this store are stored together or not at all, for a
   * step whose object changes and event must not be separated by a crash. Optional: a store
   * that does not survive its process (memory) has nothing to gain from it.
   */
  atomically?<T>(task: () => Promise<T>): Promise<T>
  /**
   * Runs a request that holds an Idempotency-Key (`task`), then `finish`, which stores its answer
   * or frees the key through {@link idempotency}, so that every write of the request and its
   * answer are stored together or none is (also when `finish` answers false: the key was taken
   * over). A process that dies mid-way then leaves either both, and a retry replays the answer,
   * or neither, and a retry runs the request: never its step twice. Optional, as `atomically`.
   */
  atomicRequest?<T>(
    task: () => Promise<T>,
    finish: (result: T) => Promise<boolean>,
  ): Promise<{ result: T; kept: boolean }>
  /** Timed work (deliveries, processor answers, settlements), as durable as the rest. */
  readonly work: WorkQueue
  /** Idempotency keys and the answers they replay. */
  readonly idempotency: IdempotencyRecords
}
