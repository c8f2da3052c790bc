// Live order page: the server pushes the re-rendered order panel (server-sent events) whenever
// the order changes, e.g. when the payment service's webhook marks it paid. No framework, no build
// step (the card form's script, checkout.js, is the one bundled script).
const root = document.getElementById('order-live')

// A final order (refunded in full, cancelled, failed) changes no more: nothing to listen for.
if (root && root.dataset.final !== 'true' && 'EventSource' in window) {
  const url = `/orders/${encodeURIComponent(root.dataset.order)}/live?version=${root.dataset.version}`
  const source = new EventSource(url)
  source.addEventListener('order', (message) => {
    const update = JSON.parse(message.data)
    if (update.version > Number(root.dataset.version)) {
      replacePanel(update.html)
      root.dataset.version = String(update.version)
      root.dataset.final = String(update.final)
    }
    // The server ends the stream after a final order; closing here stops EventSource's reconnect.
    if (update.final) source.close()
  })
}

/**
 * Swaps the panel in, keeping what the customer typed (and where) in forms that remain. Only
 * fields the customer edited are kept: an untouched field takes the new panel's value, such as
 * the amount left to refund after a partial refund.
 */
function replacePanel(markup) {
  const typed = new Map()
  for (const field of root.querySelectorAll('form input:not([type=hidden])')) {
    if (field.value !== field.defaultValue) typed.set(fieldKey(field), field.value)
  }
  const focused =
    document.activeElement && root.contains(document.activeElement)
      ? fieldKey(document.activeElement)
      : undefined
  // What the checkout script wrote into the page (a decline it was answered) is not the server's
  // to know: it stays where the new panel has the same place for it.
  const written = new Map()
  for (const element of root.querySelectorAll('[data-kept-on-update]')) {
    written.set(element.dataset.keptOnUpdate, element)
  }
  root.innerHTML = markup
  for (const field of root.querySelectorAll('form input:not([type=hidden])')) {
    const key = fieldKey(field)
    if (typed.has(key)) field.value = typed.get(key)
    if (key === focused) field.focus()
  }
  for (const element of root.querySelectorAll('[data-kept-on-update]')) {
    const previous = written.get(element.dataset.keptOnUpdate)
    if (previous) element.replaceWith(previous)
  }
}

// The card form's inputs have no name (nothing of the card may be posted to the shop): they are
// told apart by the schema field they hold.
function fieldKey(field) {
  return `${field.form ? field.form.getAttribute('action') : ''} ${field.name || field.dataset.field}`
}
