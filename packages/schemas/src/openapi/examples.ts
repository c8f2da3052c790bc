import recorded from './recorded-examples.json'

/** Requests and answers of a sandbox run, by operation id and status, to show as examples. */
export interface RecordedExamples {
  operations: Record<
    string,
    {
      /** The path parameters the recorded request used. */
      parameters?: Record<string, string>
      request?: unknown
      responses?: Record<string, unknown>
    }
  >
  /** One delivered body per event type. */
  deliveries: Record<string, unknown>
}

/**
 * Recorded by `pnpm contract:record`, which runs the contract's lifecycle tour against a fresh
 * sandbox: real answers, not hand-written ones.
 */
export const recordedExamples: RecordedExamples = recorded
