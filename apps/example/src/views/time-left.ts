/**
 * `4:59`: the minutes and seconds left until `expiresAt` (ISO 8601), never below `0:00`. The
 * order page renders it and the checkout script keeps counting it down in the browser.
 */
export function timeLeft(expiresAt: string, now: number): string {
  const seconds = Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 1000))
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
}
