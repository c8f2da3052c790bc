import { createOpenApiDocument } from '@chargekit/schemas/openapi'
import type { Context, Hono } from 'hono'
import type { OpenHandlers } from './operation-routes'
import type { SandboxEnv } from './sandbox-env'

const rendererPath = '/docs/redoc.standalone.js'

// The reference page: Redoc's element pointed at the document. Everything is this origin's, so a
// policy that allows nothing else keeps it offline (Redoc's search runs in a blob: worker).
const referencePage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Payment lifecycle service · API reference</title>
<style>body{margin:0}</style>
</head>
<body>
<redoc spec-url="/openapi.json" hide-hostname="false" path-in-middle-panel="true" expand-responses="200,201"></redoc>
<script src="${rendererPath}"></script>
</body>
</html>
`
const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
}

/**
 * The contract, served: the OpenAPI document at `/openapi.json` and `/v2/openapi.json`, with no
 * credentials and CORS open to every origin (it is public, and tools fetch it from anywhere),
 * and the API reference rendered from it at `/docs`. The document names `publicUrl` as its
 * server and is generated once, on first request.
 */
export function contractRoutes(
  app: Hono<SandboxEnv>,
  publicUrl: string,
): Pick<OpenHandlers, 'openapi.retrieve'> {
  let document: string | undefined
  const serveDocument = (c: Context<SandboxEnv>) => {
    document ??= JSON.stringify(
      createOpenApiDocument({ serverUrl: publicUrl, serverDescription: 'This sandbox' }),
    )
    return c.body(document, 200, {
      'content-type': 'application/json',
      'access-control-allow-origin': '*',
    })
  }
  let renderer: Promise<string> | undefined
  app.get('/openapi.json', serveDocument)
  app.get('/docs', (c) => c.body(referencePage, 200, pageHeaders))
  app.get(rendererPath, async (c) => {
    if (renderer === undefined) {
      renderer = import('./reference-renderer').then((module) => module.loadRendererScript())
      // Not kept when it failed: the next request tries again.
      renderer.catch(() => {
        renderer = undefined
      })
    }
    return c.body(await renderer, 200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=3600',
    })
  })
  return { 'openapi.retrieve': serveDocument }
}
