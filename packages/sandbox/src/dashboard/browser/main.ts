/**
 * The dashboard's browser entry point. On the app page it renders the view the URL names. On the
 * sign-in page it checks whether the browser is signed in after all: a link followed from
 * another site arrives without the SameSite=Strict session cookie, so the server showed sign-in;
 * loading the same URL again from here is a same-site navigation that sends it.
 */
import { chargeView } from './charge-view'
import { chargesView } from './charges-view'
import { deliveriesView, endpointView } from './deliveries-view'
import { eventView } from './event-view'
import { eventsView } from './events-view'
import { overviewView } from './overview-view'
import { requestsView } from './requests-view'
import { startRouter } from './router'

const probedKey = 'chargekit-dashboard-probed'

if (document.body.dataset.page === 'sign-in') {
  // Remembering the probed URL (never any credential) stops a reload loop if the cookie is gone.
  if (sessionStorage.getItem(probedKey) !== location.href) {
    fetch('/dashboard/session', { credentials: 'same-origin' }).then(
      (response) => {
        if (!response.ok) return
        sessionStorage.setItem(probedKey, location.href)
        location.replace(location.href)
      },
      () => {},
    )
  }
} else {
  sessionStorage.removeItem(probedKey)
  startRouter({
    overview: overviewView,
    charges: chargesView,
    charge: chargeView,
    events: eventsView,
    event: eventView,
    deliveries: deliveriesView,
    endpoint: endpointView,
    requests: requestsView,
  })
}
