import { encodeTestAmount } from '@chargekit/errors'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  eventually,
  startTestSandbox,
  TestClock,
  type TestSandbox,
  testCard,
} from '../src/testing/index'
import { gatedProcessor } from './gated-processor'

const gated = gatedProcessor()
const accountA = { id: 'acct_idem_a', key: 'sk_idem_a' }
const accountB = { id: 'acct_idem_b', key: 'sk_idem_b' }
const requestTimeoutMs = 1000
/** The answer time-out passes when a test moves this clock, not after a real second. */
const clock = new TestClock()
let harness: TestSandbox

beforeAll(async () => {
  harness = await startTestSandbox({
    accounts: [accountA, accountB],
    processors: [gated.processor],
    requestTimeoutMs,
    clock,
  })
})
afterAll(async () => {
  gated.release()
  await harness.close()
})

const chargeBody = () => ({
  charge_type: 'card_onetime',
  amount: 12.5,
  currency: 'USD',
  events_url: harness.eventsUrl,
  metadata: { order: 'idem' },
})

async function chargeCount(account = accountA) {
  return (await harness.as(account)('GET', '/charges?per_page=1')).body.pagination.total as number
}

describe('Idempotency-Key', () => {
  it('replays the stored answer for the same key and body, creating nothing new', async () => {
    const api = harness.as(accountA)
    const before = await chargeCount()
    const key = { 'idempotency-key': 'replay-1' }
    const first = await api('POST', '/charges', chargeBody(), key)
    // Same content, other key order: still the same request.
    const reordered = Object.fromEntries(Object.entries(chargeBody()).reverse())
    const second = await api('POST', '/charges', reordered, key)
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    expect(second.status).toBe(201)
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    expect(second.body).toEqual(first.body)
    expect(second.headers.get('request-id')).not.toBe(first.headers.get('request-id'))
    expect(await chargeCount()).toBe(before + 1)
  })

  it('answers 409 03.04.0000 for the same key with another body or endpoint', async () => {
    const api = harness.as(accountA)
    const key = { 'idempotency-key': 'clash-1' }
    expect((await api('POST', '/charges', chargeBody(), key)).status).toBe(201)
    const other = await api('POST', '/charges', { ...chargeBody(), amount: 13 }, key)
    expect(other.status).toBe(409)
    expect(other.body.failure_code).toBe('03.04.0000')
    const elsewhere = await api('POST', '/test/settlements', {}, key)
    expect(elsewhere.status).toBe(409)
    expect(elsewhere.body.failure_code).toBe('03.04.0000')
  })

  it('answers 409 with Retry-After while the first request is in flight', async () => {
    gated.reset()
    const api = harness.as(accountA)
    const charge = await api('POST', '/charges', {
      ...chargeBody(),
      channels: ['card_onetime_gated'],
    })
    const key = { 'idempotency-key': 'in-flight-1' }
    const first = api('POST', '/instruments', testCard(charge.body.id), key)
    await gated.waiting()
    const duplicate = await api('POST', '/instruments', testCard(charge.body.id), key)
    expect(duplicate.status).toBe(409)
    expect(duplicate.body.failure_code).toBe('02.04.0000')
    expect(duplicate.headers.get('retry-after')).toBe('1')
    gated.release()
    const done = await first
    expect(done.status).toBe(201)
    const replay = await api('POST', '/instruments', testCard(charge.body.id), key)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(replay.body.id).toBe(done.body.id)
  })

  it('answers 504 when the processor is too slow, then replays the real result', async () => {
    gated.reset()
    const api = harness.as(accountA)
    const charge = await api('POST', '/charges', {
      ...chargeBody(),
      channels: ['card_onetime_gated'],
    })
    const key = { 'idempotency-key': 'slow-1' }
    const answer = api('POST', '/instruments', testCard(charge.body.id), key)
    await gated.waiting()
    clock.advance(requestTimeoutMs)
    const timedOut = await answer
    expect(timedOut.status).toBe(504)
    expect(timedOut.body.failure_code).toBe('04.02.0000')
    gated.release()
    // The work goes on after the 504; until it ends, the key answers "in flight".
    const replay = await eventually(async () => {
      const answer = await api('POST', '/instruments', testCard(charge.body.id), key)
      expect(answer.status).not.toBe(409)
      return answer
    })
    expect(replay.status).toBe(201)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(replay.body.status).toBe('authorized')
  })

  it('replays declines too, so a retried 402 never charges twice', async () => {
    const api = harness.as(accountA)
    const before = await chargeCount()
    const key = { 'idempotency-key': 'decline-1' }
    const body = { ...chargeBody(), amount: encodeTestAmount('02.03.0000', 'charge') }
    const first = await api('POST', '/charges', body, key)
    const second = await api('POST', '/charges', body, key)
    expect([first.status, second.status]).toEqual([402, 402])
    expect(second.body).toEqual(first.body)
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    expect(await chargeCount()).toBe(before + 1)
  })

  it('scopes keys per account', async () => {
    const key = { 'idempotency-key': 'shared-key' }
    const a = await harness.as(accountA)('POST', '/charges', chargeBody(), key)
    const b = await harness.as(accountB)('POST', '/charges', chargeBody(), key)
    expect(b.status).toBe(201)
    expect(b.headers.get('idempotent-replayed')).toBeNull()
    expect(b.body.id).not.toBe(a.body.id)
  })

  it('applies to DELETE', async () => {
    const api = harness.as(accountA)
    const charge = await api('POST', '/charges', {
      ...chargeBody(),
      instrument_params: { captured_on_creation: false },
    })
    const instrument = await api('POST', '/instruments', testCard(charge.body.id))
    const key = { 'idempotency-key': 'void-1' }
    const first = await api('DELETE', `/instruments/${instrument.body.id}`, undefined, key)
    const second = await api('DELETE', `/instruments/${instrument.body.id}`, undefined, key)
    expect(first.status).toBe(204)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    expect(second.status).toBe(204)
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    const reversals = await api('GET', `/events?charge=${charge.body.id}&type=reversal.success`)
    expect(reversals.body.pagination.total).toBe(1)
  })

  it('refuses keys longer than 255 characters', async () => {
    const answer = await harness.as(accountA)('POST', '/charges', chargeBody(), {
      'idempotency-key': 'k'.repeat(256),
    })
    expect(answer.status).toBe(400)
    expect(answer.body.parameters['Idempotency-Key']).toBeDefined()
  })
})
