import { createHash } from 'node:crypto'

/**
 * The page's script and stylesheet, served from URLs that contain a hash of their content. A new
 * version gets a new URL, so browsers may keep each one forever and never ask again.
 */
export interface StaticAsset {
  /** Absolute URL path, e.g. `/dashboard/assets/dashboard.3kq9c0x1Zb2a.js`. */
  readonly path: string
  readonly body: string
  readonly contentType: string
  /** Strong validator for conditional requests, derived from the same hash. */
  readonly etag: string
}

export function createStaticAsset(
  name: string,
  extension: 'js' | 'css',
  body: string,
): StaticAsset {
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 12)
  return {
    path: `/dashboard/assets/${name}.${hash}.${extension}`,
    body,
    contentType: extension === 'js' ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8',
    etag: `"${hash}"`,
  }
}

/** Answers one asset request: 304 when the browser already holds this exact version. */
export function serveStaticAsset(asset: StaticAsset, request: Request): Response {
  const headers = {
    'content-type': asset.contentType,
    'cache-control': 'public, max-age=31536000, immutable',
    etag: asset.etag,
  }
  const cached = request.headers.get('if-none-match')
  if (cached?.split(',').some((tag) => stripWeak(tag.trim()) === asset.etag)) {
    return new Response(null, { status: 304, headers })
  }
  return new Response(asset.body, { status: 200, headers })
}

// The compression middleware weakens ETags (W/"…") it passes through; the content is the same.
function stripWeak(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag
}
