import { type Html, html } from './html.js'

export interface LayoutInfo {
  /** The sandbox dashboard, linked from the footer when the shop runs against a sandbox. */
  dashboardUrl?: string | undefined
  databaseDriver: 'pglite' | 'postgres'
}

// A coffee bean in the shop's brown, inline: no extra request, allowed by the page's img-src.
const favicon =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Cellipse cx='8' cy='8' rx='5.5' ry='7' fill='%237a4419'/%3E%3Cpath d='M8 1.5c-2 2.5 2 10-0 13' stroke='%23f3e3cf' fill='none'/%3E%3C/svg%3E"

export function layout(title: string, body: Html, info: LayoutInfo): Html {
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title} · Bean &amp; Brew</title>
    <link rel="icon" href="${favicon}" />
    <link rel="stylesheet" href="/assets/styles.css" />
    <script src="/assets/live.js" defer></script>
    <script src="/assets/checkout.js" defer></script>
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
