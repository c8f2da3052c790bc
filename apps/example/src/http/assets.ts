import { readFileSync } from 'node:fs'
import { Hono } from 'hono'

/** The stylesheet and the one small script, read once at start-up (no build step). */
const assets = {
  'styles.css': 'text/css; charset=utf-8',
  'live.js': 'text/javascript; charset=utf-8',
} as const

export function assetRoutes() {
  const app = new Hono()
  for (const [name, type] of Object.entries(assets)) {
    const body = readFileSync(new URL(`../static/${name}`, import.meta.url), 'utf8')
    app.get(`/assets/${name}`, (c) => {
      c.header('Content-Type', type)
      c.header('Cache-Control', 'public, max-age=300')
      return c.body(body)
    })
  }
  return app
}
