import { readFileSync } from 'node:fs'
import { Hono } from 'hono'
import { checkoutScript } from './checkout-script.js'

/** The stylesheet and the live-update script, read once at start-up. */
const staticAssets = {
  'styles.css': 'text/css; charset=utf-8',
  'live.js': 'text/javascript; charset=utf-8',
} as const

export function assetRoutes() {
  const app = new Hono()
  for (const [name, type] of Object.entries(staticAssets)) {
    const body = readFileSync(new URL(`../static/${name}`, import.meta.url), 'utf8')
    app.get(`/assets/${name}`, (c) => {
      c.header('Content-Type', type)
      c.header('Cache-Control', 'public, max-age=300')
      return c.body(body)
    })
  }
  app.get('/assets/checkout.js', async (c) => {
    const body = await checkoutScript()
    c.header('Content-Type', 'text/javascript; charset=utf-8')
    c.header('Cache-Control', 'public, max-age=300')
    return c.body(body)
  })
  return app
}
