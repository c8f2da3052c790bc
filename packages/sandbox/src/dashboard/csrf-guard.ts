/**
 * Two independent checks against cross-site request forgery on every state-changing dashboard
 * request. The session cookie is already SameSite=Strict; these keep the dashboard safe in
 * browsers or set-ups where that alone is not enough.
 */

/**
 * False when a browser tells us the request comes from another site. Browsers send
 * `Sec-Fetch-Site` (and `Origin` on every cross-origin POST); a request with neither did not come
 * from a web page, so there is no victim browser to forge it from. Ours rather than hono's csrf,
 * which refuses such a request (a script signing in) and judges only form content types.
 */
export function isSameOriginRequest(request: Request): boolean {
  const site = request.headers.get('sec-fetch-site')
  if (site !== null) return site === 'same-origin' || site === 'none'
  const origin = request.headers.get('origin')
  return origin === null || origin === new URL(request.url).origin
}

/** Compares a submitted CSRF token with the session's without an early exit on the first difference. */
export function csrfTokensMatch(submitted: string | undefined, expected: string): boolean {
  if (submitted === undefined || submitted.length !== expected.length) return false
  let difference = 0
  for (let index = 0; index < expected.length; index++) {
    difference |= submitted.charCodeAt(index) ^ expected.charCodeAt(index)
  }
  return difference === 0
}
