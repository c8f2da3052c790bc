/**
 * Where to send the browser after signing in: the dashboard page it asked for, so a shared link
 * survives the sign-in. Anything that is not a dashboard path on this origin (another site,
 * `//host`, the API) becomes the events view, so the form cannot be used as an open redirect.
 */
export function safeNextPath(next: string, requestUrl: string): string {
  const origin = new URL(requestUrl).origin
  try {
    const target = new URL(next, origin)
    if (target.origin === origin && /^\/dashboard(?:\/|$)/.test(target.pathname)) {
      return target.pathname + target.search
    }
  } catch {
    // Not parseable as a URL: fall through to the events view.
  }
  return '/dashboard'
}
