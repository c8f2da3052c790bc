import { secureHeaders } from 'hono/secure-headers'

/** Answers that depend on the session (pages, sign-in, API relays) are never cached. */
export const noStore = { 'cache-control': 'no-store' } as const

/**
 * The browser protections on every dashboard answer: a Content Security Policy that allows only
 * the dashboard's own files (it loads nothing but its script, stylesheet and same-origin API
 * calls), no MIME sniffing, no framing (against clickjacking of the redeliver and dismiss
 * buttons), and no full URL sent to other sites. hono's other headers stay off: the dashboard
 * answers on plain http on loopback, where they would only get in the way (HSTS) or say nothing.
 */
export function securityHeaders() {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
    xContentTypeOptions: true,
    xFrameOptions: 'DENY',
    referrerPolicy: 'same-origin',
    crossOriginResourcePolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    strictTransportSecurity: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    removePoweredBy: false,
  })
}
