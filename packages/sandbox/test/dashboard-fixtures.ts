import type { Page } from 'playwright-core'
import type { Sandbox, SandboxLogger } from '../src/index'
import { authorization, type Receiver, startReceiver, startTestSandbox } from '../src/testing/index'

/** Two accounts, so every test can check that one never sees the other's data. */
export const accountA = { id: 'acct_dash_a', key: 'sk_dash_a_0123456789secret' }
export const accountB = { id: 'acct_dash_b', key: 'sk_dash_b_9876543210secret' }
/** The overview, charges and deliveries lane's own: its totals are only its own traffic. */
export const accountC = { id: 'acct_dash_c', key: 'sk_dash_c_5555555555secret' }
export type Account = typeof accountA

export interface DashboardWorld {
  sandbox: Sandbox
  /** A merchant receiver that accepts every delivery. */
  receiver: Receiver
  /** One that answers every delivery with 500, so its events fail and are retried. */
  failingReceiver: Receiver
  /** Every line the sandbox logged, with its fields, as the CLI would print it. */
  logs: string[]
  close(): Promise<void>
}

/** A real sandbox on 127.0.0.1:0 with two accounts, its receivers, and its log captured. */
export async function startDashboardWorld(
  options: { timeScale?: number } = {},
): Promise<DashboardWorld> {
  const receiver = await startReceiver(() => 200)
  const failingReceiver = await startReceiver(() => 500)
  const logs: string[] = []
  const harness = await startTestSandbox({
    host: '127.0.0.1',
    accounts: [accountA, accountB, accountC],
    logger: capturingLogger(logs),
    ...options,
  })
  const world: DashboardWorld = {
    sandbox: harness.sandbox,
    receiver,
    failingReceiver,
    logs,
    async close() {
      await harness.close()
      await receiver.stop()
      await failingReceiver.stop()
    },
  }
  return world
}

function capturingLogger(logs: string[]): SandboxLogger {
  const capture = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    const details = JSON.stringify(fields ?? {}, (_key, value: unknown) =>
      value instanceof Error ? value.stack : value,
    )
    logs.push(`${level} ${message} ${details}`)
  }
  return { info: capture('info'), warn: capture('warn'), error: capture('error') }
}

export function basic(account: Account): string {
  return authorization(account.id, account.key)
}

/** Calls the sandbox API directly, as a merchant's server would. */
export async function callApi<T = Record<string, unknown>>(
  world: DashboardWorld,
  account: Account,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${world.sandbox.apiUrl}${path}`, {
    method,
    headers: { authorization: basic(account), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const json = (await response.json()) as T
  if (!response.ok && response.status !== 402) {
    throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(json)}`)
  }
  return json
}

export interface Flow {
  chargeId: string
  orderId: string
  paymentId: string
  refundId: string
}

/** A card charge that is authorized, captured on creation and partly refunded. */
export async function runPaidFlow(
  world: DashboardWorld,
  account: Account,
  orderId: string,
  receiver: Receiver = world.receiver,
): Promise<Flow> {
  const charge = await callApi<{ id: string }>(world, account, 'POST', '/charges', {
    charge_type: 'card_onetime',
    amount: 25.5,
    currency: 'EUR',
    events_url: `${receiver.url}/events`,
    metadata: { order_id: orderId },
  })
  await callApi(world, account, 'POST', '/instruments', card(charge.id))
  const payments = await eventsOf(world, account, charge.id, 'payment.success')
  const paymentId = payments[0]?.object_id
  if (paymentId === undefined) throw new Error(`charge ${charge.id} produced no payment.success`)
  const refund = await callApi<{ id: string }>(
    world,
    account,
    'POST',
    `/payments/${paymentId}/refund`,
    {
      amount: 5.25,
    },
  )
  return { chargeId: charge.id, orderId, paymentId, refundId: refund.id }
}

/** A charge whose amount encodes 06.02.0000 at the instrument step (the worked example of error testing by amount). */
export async function runDeclinedFlow(world: DashboardWorld, account: Account, orderId: string) {
  const charge = await callApi<{ id: string }>(world, account, 'POST', '/charges', {
    charge_type: 'card_onetime',
    amount: 6020000.2,
    currency: 'EUR',
    channels: ['card_onetime_no_processor'],
    events_url: `${world.receiver.url}/events`,
    metadata: { order_id: orderId },
  })
  await callApi(world, account, 'POST', '/instruments', card(charge.id))
  return { chargeId: charge.id }
}

/** The test card, for `chargeId`. */
export function card(chargeId: string) {
  return {
    charge: chargeId,
    name: 'Ada Lovelace',
    number: '4242424242424242',
    expiration_month: 12,
    expiration_year: 2035,
    cvc: '123',
  }
}

export interface ListedEvent {
  id: string
  type: string
  created_at: string
  object_id: string
  dismissed_at: string | null
  retries_log: unknown[]
  delivery_status: string
  next_attempt_at: string | null
}

export async function eventsOf(
  world: DashboardWorld,
  account: Account,
  chargeId: string,
  type?: string,
): Promise<ListedEvent[]> {
  const query = new URLSearchParams({ charge: chargeId, per_page: '100' })
  if (type !== undefined) query.set('type', type)
  const list = await callApi<{ collection: ListedEvent[] }>(
    world,
    account,
    'GET',
    `/events?${query}`,
  )
  return list.collection
}

/** Signs in through the form, as a person would. */
export async function signIn(
  page: Page,
  world: DashboardWorld,
  account: Account,
  path = '/dashboard',
) {
  await page.goto(`${world.sandbox.url}${path}`)
  await page.getByLabel('Account id').fill(account.id)
  await page.getByLabel('Private key').fill(account.key)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForSelector('body[data-page="app"]')
}

/** Resolves once the events view shows its list (or its empty message). */
export async function eventsLoaded(page: Page) {
  await page.waitForSelector('.results[aria-busy="false"]')
}

export const artifactsDir = new URL('../test-artifacts/', import.meta.url)
