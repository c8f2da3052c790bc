import { Hono } from 'hono'
import type { ShopContext } from '../shop-context.js'
import { html } from '../views/html.js'
import { createWebhookReceiver } from '../webhooks/webhook-receiver.js'
import { assetRoutes } from './assets.js'
import { bodyLimit, maxFormBytes } from './body-limit.js'
import { liveRoute } from './live-route.js'
import { orderRoutes } from './order-routes.js'
import { createRenderer } from './render.js'
import { scenarioRoutes } from './scenario-routes.js'
import { sameOriginPosts, securityHeaders } from './security.js'
import { shopRoutes } from './shop-routes.js'

export interface ShopAppOptions {
  /** Linked from the footer (the sandbox's dashboard). */
  dashboardUrl?: string | undefined
  log: (message: string) => void
  /** Aborted when the shop stops: ends the open live-update streams. */
  shutdown: AbortSignal
}

const webhookPath = '/webhooks'

/** The whole shop as one Hono app: pages, forms, live updates and the webhook endpoint. */
export function createShopApp(context: ShopContext, options: ShopAppOptions) {
  const render = createRenderer({
    dashboardUrl: options.dashboardUrl,
    databaseDriver: context.db.driver,
  })
  const webhooks = createWebhookReceiver(context, options.log)
  const app = new Hono()
  app.use(securityHeaders(new URL(context.browserCheckout.serviceUrl).origin))
  app.use(sameOriginPosts([webhookPath]))
  app.use(bodyLimit(maxFormBytes, [webhookPath]))
  app.post(webhookPath, (c) => webhooks.handleRequest(c.req.raw))
  app.get('/healthz', (c) => c.json({ ok: true }))
  app.route('/', assetRoutes())
  app.route('/', shopRoutes(context, render))
  app.route('/', orderRoutes(context, render))
  app.route('/', liveRoute(context, options.shutdown))
  app.route('/', scenarioRoutes(context, render))
  app.notFound((c) =>
    render(c, 'Not found', html`<h1>Not found</h1><p><a href="/">Back to the shop</a></p>`, 404),
  )
  app.onError((error, c) => {
    // The cause goes to the shop's log; the customer gets no internals (and no card data).
    options.log(`request ${c.req.method} ${c.req.path} failed: ${error.stack ?? error.message}`)
    return render(
      c,
      'Something went wrong',
      html`<h1>Something went wrong</h1>
        <p>The shop could not finish that request. Check your order before trying again.</p>`,
      500,
    )
  })
  return app
}
