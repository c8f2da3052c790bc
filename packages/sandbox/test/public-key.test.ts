import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox } from '../src/index'
import { type ApiCaller, startTestSandbox, type TestSandbox, testCard } from '../src/testing/index'

let harness: TestSandbox
let shop: ApiCaller
let shopBrowser: ApiCaller
let otherBrowser: ApiCaller

beforeAll(async () => {
  harness = await startTestSandbox({
    transport: 'http',
    accounts: [
      { id: 'acct_shop', privateKey: 'sk_shop_secret', publicKey: 'pk_shop' },
      // The older `key` name of the private key still works.
      { id: 'acct_other', key: 'sk_other_secret', publicKey: 'pk_other' },
    ],
  })
  shop = harness.as({ id: 'acct_shop', key: 'sk_shop_secret' })
  // The public key is the Basic user, with an empty password.
  shopBrowser = harness.as({ id: 'pk_shop', key: '' })
  otherBrowser = harness.as({ id: 'pk_other', key: '' })
})
afterAll(() => harness.close())

const chargeBody = () => ({
  charge_type: 'card_onetime',
  amount: 25.5,
  currency: 'EUR',
  events_url: harness.eventsUrl,
})

describe('the public key', () => {
  it('runs a checkout: charge types, an unconfirmed charge, the card, and reading both back', async () => {
    const types = await shopBrowser('GET', '/charges/types')
    expect(types.status).toBe(200)
    expect(types.body.collection.map((type: { id: string }) => type.id)).toContain('card_onetime')

    const created = await shopBrowser('POST', '/charges', chargeBody())
    expect(created.status).toBe(201)
    expect(created.body.confirmed).toBe(false)
    // Only the merchant's server may confirm it.
    const browserConfirm = await shopBrowser('POST', `/charges/${created.body.id}/confirm`)
    expect(browserConfirm.status).toBe(403)
    const tooEarly = await shopBrowser('POST', '/instruments', testCard(created.body.id))
    expect(tooEarly.status).toBe(409)
    const confirmed = await shop('POST', `/charges/${created.body.id}/confirm`)
    expect(confirmed.body.confirmed).toBe(true)

    const instrument = await shopBrowser('POST', '/instruments', testCard(created.body.id))
    expect(instrument.status).toBe(201)
    expect(instrument.body.status).toBe('authorized')
    const readCharge = await shopBrowser('GET', `/charges/${created.body.id}`)
    expect(readCharge.body.confirmed).toBe(true)
    const readInstrument = await shopBrowser('GET', `/instruments/${instrument.body.id}/`)
    expect(readInstrument.status).toBe(200)
    expect(readInstrument.body.params.last_4_digits).toBe('4242')
  })

  it("reads only a charge's browser fields, not the merchant's", async () => {
    const browserFields = [
      'amount',
      'channels',
      'charge_type',
      'charge_type_label',
      'confirmed',
      'created_at',
      'currency',
      'expires_at',
      'failure_code',
      'failure_description',
      'id',
      'instrument_params',
      'redirect_url',
      'updated_at',
    ]
    const byServer = await shop('POST', '/charges', {
      ...chargeBody(),
      metadata: { order_id: 'order-77', margin: '31%' },
      description: 'internal: VIP customer',
    })
    expect(byServer.body).toMatchObject({
      events_url: harness.eventsUrl,
      metadata: { order_id: 'order-77' },
    })
    const read = await shopBrowser('GET', `/charges/${byServer.body.id}`)
    expect(read.status).toBe(200)
    expect(Object.keys(read.body).sort()).toEqual(browserFields)
    for (const field of ['events_url', 'metadata', 'description', 'request_log', 'external_ids']) {
      expect(read.body).not.toHaveProperty(field)
    }
    expect(read.body).toMatchObject({ id: byServer.body.id, amount: 25.5, confirmed: true })

    // Started in the browser, with an Idempotency-Key: the answer and its replay alike.
    const started = { ...chargeBody(), metadata: { basket: 'b-1' } }
    const created = await shopBrowser('POST', '/charges', started, { 'idempotency-key': 'b-1' })
    const replayed = await shopBrowser('POST', '/charges', started, { 'idempotency-key': 'b-1' })
    expect(created.status).toBe(201)
    expect(Object.keys(created.body).sort()).toEqual(browserFields)
    expect(replayed.headers.get('idempotent-replayed')).toBe('true')
    expect(replayed.body).toEqual(created.body)
    // The merchant's server still reads every field of it.
    const full = await shop('GET', `/charges/${created.body.id}`)
    expect(full.body).toMatchObject({ events_url: harness.eventsUrl, metadata: { basket: 'b-1' } })
  })

  it('cannot create a confirmed charge', async () => {
    const before = (await shop('GET', '/charges')).body.pagination.total
    const answer = await shopBrowser('POST', '/charges', { ...chargeBody(), confirmed: true })
    expect(answer.status).toBe(403)
    expect(answer.body.message).toMatch(/^Confirming a charge needs the private key/)
    expect((await shop('GET', '/charges')).body.pagination.total).toBe(before)
  })

  it('is refused with 403 everywhere else, and changes nothing', async () => {
    const charge = await shop('POST', '/charges', {
      ...chargeBody(),
      instrument_params: { captured_on_creation: false },
    })
    const instrument = await shopBrowser('POST', '/instruments', testCard(charge.body.id))
    const events = await shop('GET', `/events?charge=${charge.body.id}`)
    const refused: [string, string, unknown?][] = [
      ['GET', '/charges'],
      ['GET', '/events'],
      ['GET', `/events/${events.body.collection[0].id}`],
      ['POST', `/events/${events.body.collection[0].id}/redeliver`],
      ['POST', '/payments', { instrument: instrument.body.id, amount: 25.5, currency: 'EUR' }],
      ['GET', '/payments'],
      ['GET', '/instruments'],
      ['GET', `/instruments?charge=${charge.body.id}`],
      ['GET', '/refunds'],
      ['GET', '/reversals'],
      ['GET', '/disputes'],
      ['GET', '/settlements'],
      ['POST', `/instruments/${instrument.body.id}/reversal`, {}],
      ['DELETE', `/instruments/${instrument.body.id}`],
      ['POST', '/test/settlements', {}],
      ['GET', '/requests'],
    ]
    for (const [method, path, body] of refused) {
      const answer = await shopBrowser(method, path, body)
      expect({ method, path, status: answer.status }).toEqual({ method, path, status: 403 })
      expect(answer.body.failure_code).toBe('05.03.0000')
      expect(answer.body.failure_description).toBe('Authorization Error')
      expect(answer.body.message).toContain(
        `${method} /v2${path.split('?')[0]} needs the private key`,
      )
      expect(answer.body.message).toContain('never belongs in a browser')
    }
    const after = await shop('GET', `/instruments/${instrument.body.id}`)
    expect(after.body).toMatchObject({
      status: 'authorized',
      captured_amount: 0,
      last_payment: null,
    })
  })

  it("sees only its own account's objects", async () => {
    const charge = await shop('POST', '/charges', chargeBody())
    expect((await otherBrowser('GET', `/charges/${charge.body.id}`)).status).toBe(404)
    const stolen = await otherBrowser('POST', '/instruments', testCard(charge.body.id))
    expect(stolen.status).toBe(404)
    const instrument = await shopBrowser('POST', '/instruments', testCard(charge.body.id))
    expect((await otherBrowser('GET', `/instruments/${instrument.body.id}`)).status).toBe(404)
    // Nor does another account's public key open this account's 3-D Secure page.
    const secured = await shop('POST', '/charges', {
      ...chargeBody(),
      instrument_params: { enable3ds: true },
    })
    const pending = await shopBrowser('POST', '/instruments', testCard(secured.body.id))
    const redirect = new URL(pending.body.redirect.url)
    expect(redirect.searchParams.get('public_key')).toBe('pk_shop')
    expect((await fetch(redirect)).status).toBe(200)
    redirect.searchParams.set('public_key', 'pk_other')
    expect((await fetch(redirect)).status).toBe(404)
  })

  it('is 401 when unknown, or when an account id is sent without its private key', async () => {
    for (const caller of [
      harness.as({ id: 'pk_unknown', key: '' }),
      harness.as({ id: 'acct_shop', key: '' }),
      // The public key is no password.
      harness.as({ id: 'acct_shop', key: 'pk_shop' }),
    ]) {
      const answer = await caller('GET', '/charges/types')
      expect(answer.status).toBe(401)
      expect(answer.body.failure_code).toBe('05.03.0002')
    }
  })
})

describe('card-testing defence', () => {
  it('fails a charge after five declined cards with 02.01.0000 Too Many Tries', async () => {
    const charge = await shop('POST', '/charges', chargeBody())
    const expired = { expiration_year: 2001 }
    for (let attempt = 1; attempt <= 5; attempt++) {
      const declined = await shopBrowser('POST', '/instruments', testCard(charge.body.id, expired))
      expect(declined.body.failure_code).toBe('03.00.0002')
    }
    // Even a good card is refused now: the checkout must start again with a new charge.
    const refused = await shopBrowser('POST', '/instruments', testCard(charge.body.id))
    expect(refused.status).toBe(402)
    expect(refused.body).toMatchObject({
      message: 'Transaction Error',
      failure_code: '02.01.0000',
      failure_description: 'Too Many Tries',
      metadata: { charge: charge.body.id },
    })
    expect(refused.body.failure_message).toContain('declined 5 times')
    const failed = await shop('GET', `/charges/${charge.body.id}`)
    expect(failed.body).toMatchObject({
      failure_code: '02.01.0000',
      failure_description: 'Too Many Tries',
    })
    const events = await shop('GET', `/events?charge=${charge.body.id}&type=charge.error`)
    expect(events.body.collection).toHaveLength(1)
    const again = await shopBrowser('POST', '/instruments', testCard(charge.body.id))
    expect(again.status).toBe(409)
    expect(again.body.failure_code).toBe('02.01.0000')
    expect(again.body.message).toContain('create a new charge')
    const instruments = await shop(
      'GET',
      `/events?charge=${charge.body.id}&type=instrument.created`,
    )
    expect(instruments.body.pagination.total).toBe(5)
  })

  it('takes the limit from maxDeclinedInstruments, and refuses a limit below 1', async () => {
    const strict = await startTestSandbox({ maxDeclinedInstruments: 1 })
    try {
      const charge = await strict.api('POST', '/charges', {
        ...chargeBody(),
        events_url: strict.eventsUrl,
      })
      const card = testCard(charge.body.id, { expiration_year: 2001 })
      expect((await strict.api('POST', '/instruments', card)).body.failure_code).toBe('03.00.0002')
      expect((await strict.api('POST', '/instruments', card)).body.failure_code).toBe('02.01.0000')
    } finally {
      await strict.close()
    }
    await expect(startSandbox({ port: 0, maxDeclinedInstruments: 0 })).rejects.toThrow(
      'maxDeclinedInstruments must be a whole number >= 1; got 0',
    )
  })
})

describe('account options', () => {
  it('list the private and public keys, generating a public key when none is given', async () => {
    const sandbox = await startSandbox({ port: 0, accounts: [{ id: 'acct_a', key: 'sk_a_key' }] })
    try {
      const [account] = sandbox.accounts
      expect(account).toMatchObject({ id: 'acct_a', privateKey: 'sk_a_key', key: 'sk_a_key' })
      expect(account?.publicKey).toMatch(/^pk_[\w-]{16}$/)
    } finally {
      await sandbox.close()
    }
    const defaults = await startSandbox({ port: 0 })
    expect(defaults.accounts[0]).toMatchObject({
      id: 'acct_sandbox',
      privateKey: 'sk_sandbox',
      publicKey: 'pk_sandbox',
    })
    await defaults.close()
  })

  it.each([
    [[{ id: 'acct_a', privateKey: 'sk_same', publicKey: 'sk_same' }], 'must differ'],
    [
      [
        { id: 'acct_a', privateKey: 'sk_a', publicKey: 'pk_shared' },
        { id: 'acct_b', privateKey: 'sk_b', publicKey: 'pk_shared' },
      ],
      'public key of another account',
    ],
    [[{ id: 'acct_a', privateKey: 'sk_a', publicKey: 'pk:a' }], 'invalid publicKey'],
    [[{ id: 'acct_a', privateKey: '' }], 'needs a privateKey'],
  ])('refuse bad keys: %j', async (accounts, message) => {
    await expect(startSandbox({ port: 0, accounts })).rejects.toThrow(message)
  })
})
