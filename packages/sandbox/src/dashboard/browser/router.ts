/**
 * Client-side navigation between the views. Every view has a real URL (what is shown, including
 * every filter, lives in the path and query), so links can be shared, opened in a new tab and
 * reloaded.
 */
import { main } from './dom'

/** Renders a view into the page; returns the function that stops its polling. */
export type View = (url: URL, id: string) => () => void

export interface Views {
  overview: View
  charges: View
  charge: View
  events: View
  event: View
  deliveries: View
  endpoint: View
  requests: View
}

/**
 * The paths the page renders itself, each with its view and the header link it belongs to (one
 * charge belongs to Charges, one event to Events). A `:id` is the path's last segment.
 */
const viewPaths: readonly [path: RegExp, view: keyof Views, section: string][] = [
  [/^\/dashboard$/, 'events', '/dashboard'],
  [/^\/dashboard\/events\/([^/]+)$/, 'event', '/dashboard'],
  [/^\/dashboard\/overview$/, 'overview', '/dashboard/overview'],
  [/^\/dashboard\/charges$/, 'charges', '/dashboard/charges'],
  [/^\/dashboard\/charges\/([^/]+)$/, 'charge', '/dashboard/charges'],
  [/^\/dashboard\/deliveries$/, 'deliveries', '/dashboard/deliveries'],
  [/^\/dashboard\/deliveries\/endpoint$/, 'endpoint', '/dashboard/deliveries'],
  [/^\/dashboard\/requests$/, 'requests', '/dashboard/requests'],
]

let views: Views | undefined
let stopCurrentView = () => {}

function viewOf(url: URL) {
  const pathname = url.pathname.replace(/(.)\/$/, '$1')
  for (const [path, view, section] of viewPaths) {
    const match = path.exec(pathname)
    if (match) return { view, section, id: decodeURIComponent(match[1] ?? '') }
  }
  return undefined
}

function render(moveFocus: boolean): void {
  if (views === undefined) return
  stopCurrentView()
  const url = new URL(location.href)
  const shown = viewOf(url) ?? { view: 'events' as const, section: '/dashboard', id: '' }
  stopCurrentView = views[shown.view](url, shown.id)
  // The header's view links say which section is shown.
  for (const link of document.querySelectorAll<HTMLAnchorElement>('.views a')) {
    if (link.pathname === shown.section) link.setAttribute('aria-current', 'page')
    else link.removeAttribute('aria-current')
  }
  // After a navigation, start keyboard and screen-reader users at the new view's heading.
  if (moveFocus) main.querySelector('h1')?.focus()
}

/** Shows another view as a navigation: a new history entry, focus on its heading. */
export function navigate(href: string): void {
  history.pushState(null, '', href)
  render(true)
}

function isViewUrl(url: URL): boolean {
  return url.origin === location.origin && viewOf(url) !== undefined
}

/** Renders the view the URL names and takes over the page's own links, Back and Forward. */
export function startRouter(known: Views): void {
  views = known
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0) return
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    const link =
      event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[href]') : null
    if (!link || link.target) return
    const url = new URL(link.href)
    if (!isViewUrl(url) || (url.hash && url.pathname === location.pathname)) return
    event.preventDefault()
    navigate(url.pathname + url.search)
  })
  window.addEventListener('popstate', () => render(true))
  // "/" jumps to the filters, as in many list pages.
  document.addEventListener('keydown', (event) => {
    if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return
    const target = event.target
    if (
      target instanceof HTMLElement &&
      (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
    ) {
      return
    }
    const field = document.getElementById('filter-charge')
    if (!field) return
    event.preventDefault()
    const panel = field.closest('details')
    if (panel) panel.open = true
    field.focus()
  })
  render(false)
}
