/**
 * Client-side navigation between the views. Every view has a real URL (what is shown, including
 * every filter, lives in the path and query), so links can be shared, opened in a new tab and
 * reloaded.
 */
import { main } from './dom'

/** Renders a view into the page; returns the function that stops its polling. */
export type View = (url: URL, id: string) => () => void

export interface Views {
  events: View
  event: View
  charge: View
  requests: View
}

// The paths the page renders itself: the events view, one event, one charge, the requests view.
const viewPath = /^\/dashboard(?:\/(events|charges)\/([^/]+)|\/(requests))?\/?$/

let views: Views | undefined
let stopCurrentView = () => {}

function viewOf(url: URL, known: Views): { render: View; id: string } {
  const [, kind, id = '', requests] = viewPath.exec(url.pathname) ?? []
  if (requests) return { render: known.requests, id: '' }
  if (!kind) return { render: known.events, id: '' }
  return { render: kind === 'events' ? known.event : known.charge, id: decodeURIComponent(id) }
}

function render(moveFocus: boolean): void {
  if (views === undefined) return
  stopCurrentView()
  const url = new URL(location.href)
  const view = viewOf(url, views)
  stopCurrentView = view.render(url, view.id)
  // The header's view links say which list is shown (an event or a charge belongs to Events).
  const showsRequests = view.render === views.requests
  for (const link of document.querySelectorAll<HTMLAnchorElement>('.views a')) {
    if ((link.pathname === '/dashboard/requests') === showsRequests) {
      link.setAttribute('aria-current', 'page')
    } else {
      link.removeAttribute('aria-current')
    }
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
  return url.origin === location.origin && viewPath.test(url.pathname)
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
