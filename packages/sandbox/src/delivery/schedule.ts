const second = 1_000
const minute = 60 * second
const hour = 60 * minute

/**
 * Svix's schedule: each entry is the wait before an attempt, counted from the event
 * for the first and from the previous failure for the others — which is why 10 h can repeat.
 */
export const defaultDeliverySchedule: readonly number[] = [
  0,
  5 * second,
  5 * minute,
  30 * minute,
  2 * hour,
  5 * hour,
  10 * hour,
  10 * hour,
]

/** Scaled wait before automatic attempt `index`, or undefined once the schedule is used up. */
export function delayBeforeAttempt(
  schedule: readonly number[],
  index: number,
  timeScale: number,
): number | undefined {
  const delay = schedule[index]
  return delay === undefined ? undefined : delay * timeScale
}
