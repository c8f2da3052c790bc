import { escapeHtml } from '../html'
import type { PageAssets } from './page-assets'

/**
 * The two HTML documents the dashboard serves. Both are tiny shells: the script renders the views.
 * Neither ever contains the private key; the app page carries the account id (shown to the user)
 * and the session's CSRF token, which is why HTML is never cached.
 */
export interface SignInPageInput {
  assets: PageAssets
  /** Where to go after signing in: the dashboard URL the visitor asked for. */
  next: string
  /** Pre-fills the id after a refused attempt; the key is never echoed. */
  accountId?: string
  error?: string
}

export function renderSignInPage(input: SignInPageInput): string {
  const error =
    input.error === undefined
      ? ''
      : `<p class="error" role="alert" id="sign-in-error">${escapeHtml(input.error)}</p>`
  const describedBy = input.error === undefined ? '' : ' aria-describedby="sign-in-error"'
  return document(
    'Sign in · chargekit sandbox',
    input.assets,
    'sign-in',
    '',
    `<main id="main" class="sign-in">
<h1>Sign in to the sandbox dashboard</h1>
<p>Use an account id and private key of this sandbox: the pair your API calls send as HTTP Basic credentials.</p>
${error}
<form method="post" action="/dashboard/session"${describedBy}>
<input type="hidden" name="next" value="${escapeHtml(input.next)}">
<label for="account_id">Account id</label>
<input id="account_id" name="account_id" autocomplete="username" required autofocus spellcheck="false" value="${escapeHtml(input.accountId ?? '')}">
<label for="key">Private key</label>
<input id="key" name="key" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
</main>`,
  )
}

export interface AppPageInput {
  assets: PageAssets
  accountId: string
  csrfToken: string
  pollIntervalMs: number
}

export function renderAppPage(input: AppPageInput): string {
  const csrf = escapeHtml(input.csrfToken)
  return document(
    'Events · chargekit sandbox',
    input.assets,
    'app',
    `<meta name="csrf-token" content="${csrf}">`,
    `<a class="skip-link" href="#main">Skip to content</a>
<header class="top">
<a class="brand" href="/dashboard">chargekit sandbox</a>
<nav class="views" aria-label="Views"><a href="/dashboard/overview">Overview</a> <a href="/dashboard/charges">Charges</a> <a href="/dashboard">Events</a> <a href="/dashboard/deliveries">Deliveries</a> <a href="/dashboard/requests">Requests</a></nav>
<span id="live" class="live">Live</span>
<form class="sign-out" method="post" action="/dashboard/sign-out">
<span class="account">Signed in as <strong>${escapeHtml(input.accountId)}</strong></span>
<input type="hidden" name="csrf_token" value="${csrf}">
<button type="submit">Sign out</button>
</form>
</header>
<main id="main" tabindex="-1" data-poll-ms="${input.pollIntervalMs}">
<p>Loading…</p>
<noscript><p class="error">The dashboard needs JavaScript to show events.</p></noscript>
</main>
<div id="status" class="visually-hidden" role="status" aria-live="polite"></div>`,
  )
}

// A card in the dashboard's accent colour, inline: no extra request, allowed by img-src data:.
const favicon =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect x='1' y='3' width='14' height='10' rx='2' fill='%232b59c3'/%3E%3Crect x='1' y='5.5' width='14' height='2' fill='%23fff'/%3E%3C/svg%3E"

function document(
  title: string,
  assets: PageAssets,
  page: 'sign-in' | 'app',
  head: string,
  body: string,
): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
${head}
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${favicon}">
<link rel="stylesheet" href="${assets.styles.path}">
<script type="module" src="${assets.script.path}"></script>
</head>
<body data-page="${page}">
${body}
</body>
</html>
`
}
