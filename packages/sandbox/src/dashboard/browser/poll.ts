import { errorText } from './api'
import { liveBadge, main } from './dom'

const pollIntervalMs = Number(main.dataset.pollMs) || 3000

/** Runs `tick` every poll interval while the tab is visible; returns the function that stops it. */
export function poll(tick: () => Promise<void>): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const run = async () => {
    if (stopped) return
    if (document.visibilityState === 'visible') {
      try {
        await tick()
        if (liveBadge) {
          liveBadge.textContent = 'Live'
          liveBadge.classList.remove('live-error')
        }
      } catch (error) {
        if (liveBadge) {
          liveBadge.textContent = `Updates paused: ${errorText(error)}`
          liveBadge.classList.add('live-error')
        }
      }
    }
    if (!stopped) timer = setTimeout(run, pollIntervalMs)
  }
  timer = setTimeout(run, pollIntervalMs)
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}
