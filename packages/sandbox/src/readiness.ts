import type { SandboxLogger } from './logger'

/** Whether the sandbox takes work now, and why not: what `GET /readyz` answers. */
export type ReadinessReport =
  | { readonly ready: true }
  | {
      readonly ready: false
      readonly status: 'starting' | 'stopping' | 'unavailable'
      readonly reason: string
    }

export interface Readiness {
  check(): Promise<ReadinessReport>
  /** Starting up: `reason` says what it waits for. */
  starting(reason: string): void
  /** The store is open and the work runners run; `probe` rejects when the store stops answering. */
  ready(probe: () => Promise<unknown>): void
  /** Shutting down: no new work is taken. */
  stopping(): void
}

/**
 * A probe's answer is kept this long: `/readyz` needs no credentials, so however often it is
 * called the store is asked at most once a second.
 */
const probeAnswerMs = 1_000

/**
 * The sandbox's readiness, from starting through ready to stopping. While ready, the store is
 * asked a cheap question (callers share one probe in flight and its answer for a second); a
 * store that does not answer makes the sandbox unavailable until it does, logged once each way.
 * The reason given over HTTP names no host or error detail: anyone may call `/readyz`.
 */
export function createReadiness(logger: SandboxLogger): Readiness {
  let state: ReadinessReport = { ready: false, status: 'starting', reason: 'starting' }
  let probe: (() => Promise<unknown>) | undefined
  let lastProbe: { at: number; answer: Promise<ReadinessReport> } | undefined
  let storeAnswered = true

  async function ask(run: () => Promise<unknown>): Promise<ReadinessReport> {
    try {
      await run()
      if (!storeAnswered) logger.warn('the store answers again; the sandbox is ready')
      storeAnswered = true
      return { ready: true }
    } catch (error) {
      if (storeAnswered) logger.warn('the store does not answer; /readyz answers 503', { error })
      storeAnswered = false
      return { ready: false, status: 'unavailable', reason: 'the store does not answer' }
    }
  }

  return {
    async check() {
      if (probe === undefined || !state.ready) return state
      const now = Date.now()
      if (lastProbe === undefined || now - lastProbe.at >= probeAnswerMs) {
        lastProbe = { at: now, answer: ask(probe) }
      }
      const answer = await lastProbe.answer
      // Stopping meanwhile wins over what the store said.
      return state.ready ? answer : state
    },
    starting(reason) {
      state = { ready: false, status: 'starting', reason }
    },
    ready(storeProbe) {
      probe = storeProbe
      lastProbe = undefined
      state = { ready: true }
    },
    stopping() {
      state = { ready: false, status: 'stopping', reason: 'shutting down' }
    },
  }
}
