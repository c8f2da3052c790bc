import type { Charge } from '@chargekit/schemas'
import { describe, expect, it } from 'vitest'
import { idempotencyTtlMs, inFlightLeaseMs } from '../src/storage/idempotency-records'
import type {
  InstrumentRecord,
  PaymentRecord,
  RefundRecord,
  StoredEvent,
} from '../src/storage/records'
import type { SandboxStore } from '../src/storage/sandbox-store'

export interface StoreSubject {
  store: SandboxStore
  close(): Promise<void>
}

const account = 'acct_contract'
const otherAccount = 'acct_other'

// The store keeps whatever objects it is given; these carry the fields it indexes and a few more,
// in a deliberate key order that a read must give back.
function charge(id: string, metadata: Record<string, unknown> | string = {}): Charge {
  return {
    id,
    amount: '10.00',
    currency: 'EUR',
    status: 'confirmed',
    metadata,
  } as unknown as Charge
}

function instrument(id: string, chargeId: string, status = 'authorized'): InstrumentRecord {
  return {
    id,
    charge: { id: chargeId, charge_type: 'card_onetime' },
    status,
  } as unknown as InstrumentRecord
}

function payment(id: string, instrumentId: string, settledAt: string | null = null): PaymentRecord {
  return {
    id,
    amount: '5.00',
    charge: { id: 'ch_1' },
    instrument: { id: instrumentId },
    status: 'success',
    settled_at: settledAt,
  } as unknown as PaymentRecord
}

function refund(id: string, paymentId: string, status: string): RefundRecord {
  return {
    id,
    payment: paymentId,
    charge: 'ch_1',
    amount: '1.00',
    status,
    settled_at: null,
  } as unknown as RefundRecord
}

/**
 * Every object, event and challenge belongs to a charge, stored first, as the lifecycle does: a
 * store that keeps a bounded number of charges may ignore writes for a charge it does not hold.
 */
async function holdCharges(store: SandboxStore, accountId: string, ...chargeIds: string[]) {
  for (const id of chargeIds) await store.putObject(accountId, 'charge', charge(id))
}

function event(
  id: string,
  type: string,
  subject: Charge,
  objectId: string,
  createdAt: string,
  changes: Partial<StoredEvent> = {},
): StoredEvent {
  return {
    id,
    created_at: createdAt,
    object_id: objectId,
    result_status: 0,
    retries_log: [],
    type,
    type_label: type,
    charge: subject,
    instrument: null,
    payment: null,
    refund: null,
    reversal: null,
    dispute: null,
    settlement: null,
    dismissed_at: null,
    delivery_status: 'none',
    next_attempt_at: null,
    ...changes,
  }
}

const ids = (items: readonly { id: string }[]) => items.map((item) => item.id)
const all = { offset: 0, limit: 100 }

/**
 * What every SandboxStore promises, run against each implementation (memory, embedded,
 * PostgreSQL). `open` gives an empty store.
 */
export function describeStoreContract(name: string, open: () => Promise<StoreSubject>) {
  describe(`SandboxStore contract: ${name}`, () => {
    async function withStore(test: (store: SandboxStore) => Promise<void>) {
      const subject = await open()
      try {
        await test(subject.store)
      } finally {
        await subject.close()
      }
    }

    it('gives objects back as stored, per account and kind, and replaces them in place', () =>
      withStore(async (store) => {
        await holdCharges(store, account, 'ch_1', 'ch_2', 'ch_3')
        await holdCharges(store, otherAccount, 'ch_9')
        const first = instrument('in_1', 'ch_1')
        await store.putObject(account, 'instrument', first)
        await store.putObject(account, 'instrument', instrument('in_2', 'ch_2'))
        await store.putObject(account, 'instrument', instrument('in_3', 'ch_3'))
        expect(await store.getObject(account, 'instrument', 'in_1')).toEqual(first)
        // Key order survives too: an answer renders as it was written.
        expect(JSON.stringify(await store.getObject(account, 'instrument', 'in_1'))).toBe(
          JSON.stringify(first),
        )
        expect(await store.getObject(account, 'payment', 'in_1')).toBeUndefined()
        expect(await store.getObject(otherAccount, 'instrument', 'in_1')).toBeUndefined()

        const replaced = instrument('in_1', 'ch_1', 'invalid')
        await store.putObject(account, 'instrument', replaced)
        expect(await store.getObject(account, 'instrument', 'in_1')).toEqual(replaced)
        const listed = await store.listObjects(account, 'instrument', {}, all)
        expect(ids(listed.items)).toEqual(['in_3', 'in_2', 'in_1'])
        expect(listed.total).toBe(3)
        expect(listed.items[2]).toEqual(replaced)

        // The same id in another account is another object.
        await store.putObject(otherAccount, 'instrument', instrument('in_1', 'ch_9'))
        expect((await store.getObject(account, 'instrument', 'in_1'))?.status).toBe('invalid')
        expect((await store.listObjects(otherAccount, 'instrument', {}, all)).total).toBe(1)
      }))

    it('pages object lists newest first and counts every match', () =>
      withStore(async (store) => {
        for (let index = 1; index <= 7; index++) {
          await store.putObject(account, 'charge', charge(`ch_${index}`))
        }
        const second = await store.listObjects(account, 'charge', {}, { offset: 3, limit: 3 })
        expect(ids(second.items)).toEqual(['ch_4', 'ch_3', 'ch_2'])
        expect(second.total).toBe(7)
        const everything = await store.listObjects(
          account,
          'charge',
          {},
          {
            offset: 1,
            limit: Number.POSITIVE_INFINITY,
          },
        )
        expect(ids(everything.items)).toEqual(['ch_6', 'ch_5', 'ch_4', 'ch_3', 'ch_2', 'ch_1'])
        const beyond = await store.listObjects(account, 'charge', {}, { offset: 10, limit: 3 })
        expect(beyond).toEqual({ items: [], total: 7 })
        expect(await store.listObjects(otherAccount, 'charge', {}, all)).toEqual({
          items: [],
          total: 0,
        })
      }))

    it('filters objects by parent, status and settlement', () =>
      withStore(async (store) => {
        await holdCharges(store, account, 'ch_a', 'ch_b', 'ch_1')
        await store.putObject(account, 'instrument', instrument('in_a', 'ch_a'))
        await store.putObject(account, 'instrument', instrument('in_b', 'ch_b'))
        await store.putObject(account, 'payment', payment('pa_1', 'in_a'))
        await store.putObject(
          account,
          'payment',
          payment('pa_2', 'in_a', '2030-01-01T00:00:00.000Z'),
        )
        await store.putObject(account, 'payment', payment('pa_3', 'in_b'))
        await store.putObject(account, 'refund', refund('re_1', 'pa_1', 'success'))
        await store.putObject(account, 'refund', refund('re_2', 'pa_1', 'error'))
        await store.putObject(account, 'refund', refund('re_3', 'pa_3', 'success'))

        const list = async (kind: 'instrument' | 'payment' | 'refund', filter: object) =>
          ids((await store.listObjects(account, kind, filter, all)).items)
        expect(await list('instrument', { charge: 'ch_b' })).toEqual(['in_b'])
        expect(await list('payment', { instrument: 'in_a' })).toEqual(['pa_2', 'pa_1'])
        expect(await list('payment', { instrument: 'in_a', unsettled: true })).toEqual(['pa_1'])
        expect(await list('payment', { unsettled: true })).toEqual(['pa_3', 'pa_1'])
        expect(await list('refund', { payment: 'pa_1' })).toEqual(['re_2', 're_1'])
        expect(await list('refund', { payment: 'pa_1', status: 'success' })).toEqual(['re_1'])
        expect(await list('refund', { status: 'success' })).toEqual(['re_3', 're_1'])
        expect(await list('refund', { payment: 'pa_missing' })).toEqual([])
        // Instruments have no settlement date: none is "unsettled".
        expect(await list('instrument', { unsettled: true })).toEqual([])

        // A replaced object is found by what it is now.
        await store.putObject(account, 'refund', refund('re_2', 'pa_1', 'success'))
        expect(await list('refund', { status: 'success' })).toEqual(['re_3', 're_2', 're_1'])
        const page = await store.listObjects(
          account,
          'refund',
          { status: 'success' },
          {
            offset: 1,
            limit: 1,
          },
        )
        expect(page).toMatchObject({ total: 3 })
        expect(ids(page.items)).toEqual(['re_2'])
      }))

    it('lists events newest first under every filter, and pages them', () =>
      withStore(async (store) => {
        const shop = charge('ch_shop', { order: 'A-1', count: 3, gift: true })
        const other = charge('ch_other', { order: 'B-2' })
        await store.putObject(account, 'charge', shop)
        await store.putObject(account, 'charge', other)
        await store.putObject(otherAccount, 'charge', shop)
        const at = (second: number) => `2030-01-01T00:00:${String(second).padStart(2, '0')}.000Z`
        await store.addEvent(account, event('ev_1', 'charge.created', shop, 'ch_shop', at(1)))
        await store.addEvent(
          account,
          event('ev_2', 'instrument.authorized', shop, 'in_shop', at(2), {
            result_status: 204,
            delivery_status: 'delivered',
          }),
        )
        await store.addEvent(account, event('ev_3', 'charge.created', other, 'ch_other', at(3)))
        await store.addEvent(
          account,
          event('ev_4', 'payment.success', shop, 'pa_shop', at(4), {
            dismissed_at: at(5),
            result_status: 500,
            delivery_status: 'failing',
          }),
        )
        await store.addEvent(otherAccount, event('ev_x', 'charge.created', shop, 'ch_shop', at(1)))

        const search = async (filter: object) =>
          ids((await store.listEvents(account, filter, all)).items)
        expect(await search({})).toEqual(['ev_4', 'ev_3', 'ev_2', 'ev_1'])
        expect(await search({ types: new Set(['charge.created', 'payment.success']) })).toEqual([
          'ev_4',
          'ev_3',
          'ev_1',
        ])
        expect(await search({ charge: 'ch_shop' })).toEqual(['ev_4', 'ev_2', 'ev_1'])
        expect(await search({ objectId: 'in_shop' })).toEqual(['ev_2'])
        expect(await search({ metadata: { order: 'A-1' } })).toEqual(['ev_4', 'ev_2', 'ev_1'])
        // Query values are text: numbers and booleans match by their text form.
        expect(await search({ metadata: { count: '3', gift: 'true' } })).toEqual([
          'ev_4',
          'ev_2',
          'ev_1',
        ])
        expect(await search({ metadata: { order: 'A-1', count: '4' } })).toEqual([])
        expect(await search({ metadata: { constructor: 'Object' } })).toEqual([])
        expect(await search({ createdGte: at(2), createdLte: at(3) })).toEqual(['ev_3', 'ev_2'])
        expect(await search({ dismissed: true })).toEqual(['ev_4'])
        expect(await search({ dismissed: false })).toEqual(['ev_3', 'ev_2', 'ev_1'])
        expect(await search({ resultStatus: 204 })).toEqual(['ev_2'])
        expect(await search({ deliveryStatus: 'failing' })).toEqual(['ev_4'])
        expect(await search({ charge: 'ch_shop', types: new Set(['charge.created']) })).toEqual([
          'ev_1',
        ])

        const paged = await store.listEvents(
          account,
          { charge: 'ch_shop' },
          { offset: 1, limit: 1 },
        )
        expect(ids(paged.items)).toEqual(['ev_2'])
        expect(paged.total).toBe(3)
        expect(ids((await store.listEvents(otherAccount, {}, all)).items)).toEqual(['ev_x'])
        expect(await store.getEvent(otherAccount, 'ev_1')).toBeUndefined()
      }))

    it('finds charges and events kept with a metadata string by no metadata key', () =>
      withStore(async (store) => {
        const text = charge('ch_text', '42|1001')
        const keyed = charge('ch_keyed', { 0: '4', order: '42|1001' })
        await store.putObject(account, 'charge', text)
        await store.putObject(account, 'charge', keyed)
        const at = '2030-01-01T00:00:00.000Z'
        await store.addEvent(account, event('ev_text', 'charge.created', text, 'ch_text', at))
        await store.addEvent(account, event('ev_keyed', 'charge.created', keyed, 'ch_keyed', at))
        expect((await store.getObject(account, 'charge', 'ch_text'))?.metadata).toBe('42|1001')
        expect((await store.getEvent(account, 'ev_text'))?.charge.metadata).toBe('42|1001')
        // A string's own keys would be its character positions ("0" is "4"): never metadata.
        for (const metadata of [{ 0: '4' }, { order: '42|1001' }]) {
          const charges = await store.listObjects(account, 'charge', { metadata }, all)
          expect(ids(charges.items)).toEqual(['ch_keyed'])
          expect(ids((await store.listEvents(account, { metadata }, all)).items)).toEqual([
            'ev_keyed',
          ])
        }
        expect((await store.listObjects(account, 'charge', {}, all)).total).toBe(2)
      }))

    it('gives an event back as recorded, and as updated after', () =>
      withStore(async (store) => {
        const recorded = event(
          'ev_u',
          'charge.created',
          charge('ch_u', { k: 'v' }),
          'ch_u',
          '2030-01-01T00:00:00.000Z',
          {
            delivery_status: 'pending',
            next_attempt_at: '2030-01-01T00:00:00.000Z',
          },
        )
        await holdCharges(store, account, 'ch_u')
        await store.addEvent(account, recorded)
        const stored = await store.getEvent(account, 'ev_u')
        expect(stored).toEqual(recorded)
        expect(JSON.stringify(stored)).toBe(JSON.stringify(recorded))

        const retries = [{ created_at: '2030-01-01T00:00:05.000Z', result_status: 503 }]
        const updated = await store.updateEvent(account, 'ev_u', {
          result_status: 503,
          retries_log: retries,
          next_attempt_at: '2030-01-01T00:05:00.000Z',
        })
        const expected = {
          ...recorded,
          result_status: 503,
          retries_log: retries,
          next_attempt_at: '2030-01-01T00:05:00.000Z',
        }
        expect(updated).toEqual(expected)
        expect(await store.getEvent(account, 'ev_u')).toEqual(expected)
        expect(ids((await store.listEvents(account, { resultStatus: 503 }, all)).items)).toEqual([
          'ev_u',
        ])

        await store.updateEvent(account, 'ev_u', {
          delivery_status: 'delivered',
          result_status: 200,
          next_attempt_at: null,
          dismissed_at: '2030-01-02T00:00:00.000Z',
        })
        const final = await store.getEvent(account, 'ev_u')
        expect(final).toMatchObject({
          delivery_status: 'delivered',
          result_status: 200,
          next_attempt_at: null,
          dismissed_at: '2030-01-02T00:00:00.000Z',
          retries_log: retries,
        })
        expect(ids((await store.listEvents(account, { dismissed: true }, all)).items)).toEqual([
          'ev_u',
        ])
        expect(
          ids((await store.listEvents(account, { deliveryStatus: 'pending' }, all)).items),
        ).toEqual([])
        expect(await store.updateEvent(account, 'ev_missing', { result_status: 1 })).toBeUndefined()
        expect(await store.updateEvent(otherAccount, 'ev_u', { result_status: 1 })).toBeUndefined()
        expect((await store.getEvent(account, 'ev_u'))?.result_status).toBe(200)
      }))

    it('lists the events recorded after one, oldest first, under a filter', () =>
      withStore(async (store) => {
        await holdCharges(store, account, 'ch_a', 'ch_b')
        await holdCharges(store, otherAccount, 'ch_o')
        // Recording order, not created_at: the second event has the earlier time.
        const recorded = [
          event('ev_1', 'charge.created', charge('ch_a'), 'ch_a', '2030-01-01T00:00:02.000Z'),
          event('ev_2', 'charge.created', charge('ch_b'), 'ch_b', '2030-01-01T00:00:01.000Z'),
          event('ev_3', 'charge.confirmed', charge('ch_a'), 'ch_a', '2030-01-01T00:00:03.000Z'),
          event('ev_4', 'charge.confirmed', charge('ch_b'), 'ch_b', '2030-01-01T00:00:04.000Z'),
        ]
        const announced: string[] = []
        const stop = store.onEventAdded?.((accountId) => announced.push(accountId))
        for (const each of recorded) await store.addEvent(account, each)
        await store.addEvent(
          otherAccount,
          event('ev_o', 'charge.created', charge('ch_o'), 'ch_o', '2030-01-01T00:00:00.000Z'),
        )
        stop?.()
        if (store.onEventAdded !== undefined) {
          expect(announced).toEqual([account, account, account, account, otherAccount])
        }
        const after = async (id: string | undefined, filter = {}, limit = 100) =>
          (await store.listEventsAfter(account, id, filter, limit))?.map((each) => each.id)
        expect(await after(undefined)).toEqual(['ev_1', 'ev_2', 'ev_3', 'ev_4'])
        expect(await after('ev_2')).toEqual(['ev_3', 'ev_4'])
        expect(await after('ev_4')).toEqual([])
        expect(await after('ev_1', {}, 2)).toEqual(['ev_2', 'ev_3'])
        expect(await after('ev_1', { types: new Set(['charge.confirmed']) })).toEqual([
          'ev_3',
          'ev_4',
        ])
        expect(await after(undefined, { createdGte: '2030-01-01T00:00:02.500Z' })).toEqual([
          'ev_3',
          'ev_4',
        ])
        // Another account's event, or none at all, is no place to start from.
        expect(await after('ev_o')).toBeUndefined()
        expect(await after('ev_missing')).toBeUndefined()
        expect(await store.listEventsAfter(otherAccount, undefined, {}, 100)).toHaveLength(1)
      }))

    it("keeps an account's first signing secret", () =>
      withStore(async (store) => {
        expect(await store.signingSecret(account, 'whsec_first')).toBe('whsec_first')
        expect(await store.signingSecret(account, 'whsec_second')).toBe('whsec_first')
        expect(await store.signingSecret(otherAccount, 'whsec_other')).toBe('whsec_other')
      }))

    it("stores an event's work with it", () =>
      withStore(async (store) => {
        const due = 1_800_000_000_000
        await holdCharges(store, account, 'ch_w')
        await store.addEvent(
          account,
          event('ev_w', 'charge.created', charge('ch_w'), 'ch_w', '2030-01-01T00:00:00.000Z'),
          [{ kind: 'delivery', accountId: account, payload: { event: 'ev_w' }, dueAt: due }],
        )
        expect(await store.work.nextDueAt('delivery')).toBe(due)
        const [claimed] = await store.work.claim('delivery', due, 10, 60_000)
        expect(claimed).toMatchObject({ accountId: account, payload: { event: 'ev_w' } })
      }))

    it('keeps challenges by instrument id until deleted', () =>
      withStore(async (store) => {
        await holdCharges(store, account, 'ch_3ds')
        await store.putObject(account, 'instrument', instrument('in_3ds', 'ch_3ds', 'pending'))
        const challenge = {
          accountId: account,
          instrumentId: 'in_3ds',
          token: 'tok_1',
          action: 'reference' as const,
        }
        await store.putChallenge(challenge)
        expect(await store.getChallenge('in_3ds')).toEqual(challenge)
        await store.putChallenge({ ...challenge, token: 'tok_2' })
        expect((await store.getChallenge('in_3ds'))?.token).toBe('tok_2')
        await store.deleteChallenge('in_3ds')
        expect(await store.getChallenge('in_3ds')).toBeUndefined()
      }))

    it('reserves an idempotency key once, replays its answer, and forgets it after 24 h', () =>
      withStore(async (store) => {
        const records = store.idempotency
        const now = 1_800_000_000_000
        const answer = {
          status: 201,
          body: '{"id":"ch_1"}',
          headers: { location: '/v2/charges/ch_1' },
          warnings: { list: [], omitted: 0 },
        }
        const first = await records.reserve(account, 'key-1', 'POST a', now)
        if (first.state !== 'reserved') throw new Error('not reserved')
        expect(await records.reserve(account, 'key-1', 'POST a', now + 1)).toEqual({
          state: 'running',
          fingerprint: 'POST a',
        })
        // Another account's key of the same name is its own.
        expect((await records.reserve(otherAccount, 'key-1', 'POST b', now)).state).toBe('reserved')

        await records.finish(account, 'key-1', first.token, answer)
        expect(await records.reserve(account, 'key-1', 'POST other', now + 2)).toEqual({
          state: 'done',
          fingerprint: 'POST a',
          answer,
        })
        // A stale token (not the holder's) changes nothing.
        await records.release(account, 'key-1', 'not-the-token')
        expect((await records.reserve(account, 'key-1', 'POST a', now + 3)).state).toBe('done')
        expect(
          (await records.reserve(account, 'key-1', 'POST a', now + idempotencyTtlMs - 1)).state,
        ).toBe('done')
        expect(
          (await records.reserve(account, 'key-1', 'POST new', now + idempotencyTtlMs)).state,
        ).toBe('reserved')
      }))

    it('frees a released key, and a key whose request never finished', () =>
      withStore(async (store) => {
        const records = store.idempotency
        const now = 1_800_000_000_000
        const first = await records.reserve(account, 'key-2', 'POST a', now)
        if (first.state !== 'reserved') throw new Error('not reserved')
        await records.release(account, 'key-2', first.token)
        const second = await records.reserve(account, 'key-2', 'POST b', now)
        if (second.state !== 'reserved') throw new Error('not reserved again')

        // The request holding the key died: after the in-flight lease a retry may run.
        expect(
          (await records.reserve(account, 'key-2', 'POST b', now + inFlightLeaseMs - 1)).state,
        ).toBe('running')
        const third = await records.reserve(account, 'key-2', 'POST b', now + inFlightLeaseMs)
        if (third.state !== 'reserved') throw new Error('not taken over')
        // The dead request's late answer is not stored over the retry's.
        await records.finish(account, 'key-2', second.token, {
          status: 201,
          body: 'late',
          headers: {},
          warnings: { list: [], omitted: 0 },
        })
        expect(
          (await records.reserve(account, 'key-2', 'POST b', now + inFlightLeaseMs)).state,
        ).toBe('running')
      }))
  })
}
