import { type Html, html } from './html.js'

export interface LayoutInfo {
  /** The sandbox dashboard, linked from the footer when the shop runs against a sandbox. */
  dashboardUrl?: string | undefined
  databaseDriver: 'pglite' | 'postgres'
}

export function layout(title: string, body: Html, info: LayoutInfo): Html {
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title} · Bean &amp; Brew</title>
    <link rel="stylesheet" href="/assets/styles.css" />
    <script src="/assets/live.js" defer></script>
  </head>
  <body>
    <header class="site-header">
      <a class="brand" href="/">Bean &amp; Brew</a>
      <nav>
        <a href="/">Shop</a>
        <a href="/orders">Orders</a>
        <a href="/scenarios">Test scenarios</a>
      </nav>
    </header>
    <main>${body}</main>
    <footer class="site-footer">
      An example shop on chargekit. Orders live in
      ${info.databaseDriver === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}.
      ${info.dashboardUrl ? html`<a href="${info.dashboardUrl}">Sandbox dashboard</a>` : ''}
    </footer>
  </body>
</html>`
}
