// Runs in the customer's browser (bundled by schema-form-checkout.e2e.test.ts): a payment form drawn
// from GET /v2/charges/types the way the provider's own browser form library draws it. That
// library keeps the entries whose `payout` is exactly false and sorts them by `schema.title`;
// it draws one input per property of the schema, labelled with the property's `title`, checks
// what the customer typed against the schema's own rules before sending anything, asks the
// merchant's server for a charge, and sends the fields as typed, with the charge's id, to
// POST /v2/instruments with the account's public key.

interface FieldSchema {
  type?: string
  title?: string
  pattern?: string
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
}

interface ChargeTypeEntry {
  id: string
  payout?: unknown
  schema: { title?: string; properties?: Record<string, FieldSchema>; required?: string[] }
}

/** What the merchant's page gives the form, as JSON in `<script id="form-options">`. */
interface FormOptions {
  /** The service's `/v2` URL. */
  apiUrl: string
  publicKey: string
  /** The merchant's endpoint that creates the charge: `{ merchantTransactionId, chargeType }`. */
  chargesUrl: string
  merchantTransactionId: string
}

const container = document.getElementById('payment-form') as HTMLElement
const options = JSON.parse(
  document.getElementById('form-options')?.textContent ?? '{}',
) as FormOptions
const authorization = `Basic ${btoa(`${options.publicKey}:`)}`

void showChargeTypes()

async function showChargeTypes() {
  let entries: ChargeTypeEntry[]
  try {
    const answer = await fetch(`${options.apiUrl}/charges/types`, { headers: { authorization } })
    if (!answer.ok) throw new Error(`${answer.status}`)
    const { collection } = (await answer.json()) as { collection: ChargeTypeEntry[] }
    entries = collection
      .filter((entry) => entry.payout === false)
      .sort((a, b) => titleOf(a).localeCompare(titleOf(b)))
  } catch {
    showStatus('Error fetching payment methods, please try again later.')
    return
  }
  const list = document.createElement('nav')
  for (const entry of entries) {
    const choose = document.createElement('button')
    choose.type = 'button'
    choose.textContent = titleOf(entry)
    choose.addEventListener('click', () => drawForm(entry))
    list.append(choose)
  }
  container.replaceChildren(list)
}

/** The library reads `schema.title` without a fallback: an entry without one stops the list. */
function titleOf(entry: ChargeTypeEntry): string {
  const title = entry.schema.title
  if (typeof title !== 'string') throw new Error(`charge type ${entry.id} has no schema.title`)
  return title
}

function drawForm(entry: ChargeTypeEntry) {
  const form = document.createElement('form')
  form.noValidate = true
  const heading = document.createElement('h2')
  heading.textContent = titleOf(entry)
  form.append(heading)
  const required = new Set(entry.schema.required ?? [])
  const fields = Object.entries(entry.schema.properties ?? {})
  for (const [name, field] of fields) {
    const label = document.createElement('label')
    label.textContent = field.title ?? name
    const input = document.createElement('input')
    input.name = name
    input.type = field.type === 'integer' ? 'number' : 'text'
    label.append(input)
    const problem = document.createElement('small')
    problem.dataset.problemFor = name
    form.append(label, problem)
  }
  const submit = document.createElement('button')
  submit.type = 'submit'
  submit.textContent = 'Pay'
  form.append(submit)
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const values = new Map<string, string>()
    let valid = true
    for (const [name, field] of fields) {
      const value = (form.elements.namedItem(name) as HTMLInputElement).value
      values.set(name, value)
      const problem = problemOf(value, field, required.has(name))
      const shown = form.querySelector<HTMLElement>(`[data-problem-for="${name}"]`)
      if (shown) shown.textContent = problem ?? ''
      if (problem !== undefined) valid = false
    }
    if (valid) void sendPayment(entry, fields, values)
  })
  container.replaceChildren(form)
}

/** The schema's own rules, as the library checks them before it sends anything. */
function problemOf(value: string, field: FieldSchema, required: boolean): string | undefined {
  if (value === '') return required ? 'Required' : undefined
  if (field.type === 'integer') {
    const number = Number(value)
    if (!Number.isInteger(number)) return 'Expected a whole number'
    if (field.minimum !== undefined && number < field.minimum) return 'Too small'
    if (field.maximum !== undefined && number > field.maximum) return 'Too large'
    return undefined
  }
  if (field.minLength !== undefined && value.length < field.minLength) return 'Too short'
  if (field.maxLength !== undefined && value.length > field.maxLength) return 'Too long'
  if (field.pattern !== undefined && !new RegExp(field.pattern).test(value)) return 'Invalid'
  return undefined
}

async function sendPayment(
  entry: ChargeTypeEntry,
  fields: [string, FieldSchema][],
  values: Map<string, string>,
) {
  showStatus('Processing…', false)
  const created = await fetch(options.chargesUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      merchantTransactionId: options.merchantTransactionId,
      chargeType: entry.id,
    }),
  })
  const charge = (await created.json()) as { id: string }
  const body: Record<string, unknown> = { charge: charge.id }
  for (const [name, field] of fields) {
    const value = values.get(name) ?? ''
    body[name] = field.type === 'integer' ? Number(value) : value
  }
  const answer = await fetch(`${options.apiUrl}/instruments`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const instrument = (await answer.json()) as {
    id?: string
    status?: string
    redirect?: { url?: string | null } | null
    message?: string
  }
  if (instrument.redirect?.url) {
    location.assign(instrument.redirect.url)
    return
  }
  container.dataset.instrument = instrument.id ?? ''
  container.dataset.status = instrument.status ?? `error ${answer.status}`
  showStatus(instrument.status ? `Payment ${instrument.status}` : (instrument.message ?? ''), false)
}

function showStatus(text: string, replace = true) {
  const status = document.createElement('p')
  status.setAttribute('role', 'status')
  status.textContent = text
  if (replace) container.replaceChildren(status)
  else {
    container.querySelector('[role="status"]')?.remove()
    container.append(status)
  }
}
