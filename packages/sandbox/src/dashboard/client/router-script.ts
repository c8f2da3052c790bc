/**
 * Browser code: client-side navigation between the views. Every view has a real URL (what is
 * shown, including every filter, lives in the path and query), so links can be shared, opened in
 * a new tab and reloaded.
 */
export const routerScript = String.raw`
let stopCurrentView = () => {}

// The paths the page renders itself: the events view, one event, one charge, the requests view.
const viewPath = /^\/dashboard(?:\/(events|charges)\/([^/]+)|\/(requests))?\/?$/

function viewOf(url) {
  const [, kind, id, requests] = viewPath.exec(url.pathname) ?? []
  if (requests) return { render: requestsView }
  if (!kind) return { render: eventsView }
  return { render: kind === 'events' ? eventView : chargeView, id: decodeURIComponent(id) }
}

function render(moveFocus) {
  stopCurrentView()
  const url = new URL(location.href)
  const view = viewOf(url)
  stopCurrentView = view.render(url, view.id)
  // The header's view links say which list is shown (an event or a charge belongs to Events).
  for (const link of document.querySelectorAll('.views a')) {
    const current = (link.pathname === '/dashboard/requests') === (view.render === requestsView)
    if (current) link.setAttribute('aria-current', 'page')
    else link.removeAttribute('aria-current')
  }
  // After a navigation, start keyboard and screen-reader users at the new view's heading.
  if (moveFocus) main.querySelector('h1')?.focus()
}

function navigate(href) {
  history.pushState(null, '', href)
  render(true)
}

function isViewUrl(url) {
  return url.origin === location.origin && viewPath.test(url.pathname)
}

document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0) return
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null
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
  if (target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return
  const field = document.getElementById('filter-charge')
  if (!field) return
  event.preventDefault()
  const panel = field.closest('details')
  if (panel) panel.open = true
  field.focus()
})
`
