import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { keyedFingerprint } from '../src/accounts/fingerprint'
import { cardBrand } from '../src/card/card-brand'
import { cardParams, isCardExpired } from '../src/card/card-params'
import { parseCliArguments } from '../src/cli-options'
import { DueHeap } from '../src/due-heap'
import { SandboxError } from '../src/errors'
import { canonicalJson } from '../src/http/canonical-json'
import { clientAddress, createCredentialThrottle } from '../src/http/credential-throttle'
import { createIdempotencyCache } from '../src/http/idempotency'
import { IntegrationWarnings } from '../src/http/integration-warnings'
import { createKeyedLock } from '../src/keyed-lock'
import { startSandbox } from '../src/start-sandbox'
import { createMemoryIdempotencyRecords } from '../src/storage/memory-idempotency'
import { createMemoryStore } from '../src/storage/memory-store'

const card = {
  name: 'Ada',
  number: '4242424242424242',
  expiration_month: 3,
  expiration_year: 2030,
  cvc: '123',
}

describe('card details', () => {
  it.each([
    ['4242424242424242', 'VISA'],
    ['5555555555554444', 'MASTERCARD'],
    ['2223003122003222', 'MASTERCARD'],
    ['378282246310005', 'AMEX'],
    ['6011111111111117', 'DISCOVER'],
    ['3566002020360505', 'JCB'],
    ['36227206271667', 'DINERS'],
    ['6200000000000005', 'UNIONPAY'],
    ['9999999999999999', 'UNKNOWN'],
  ])('%s is %s', (number, brand) => {
    expect(cardBrand(number)).toBe(brand)
  })

  it('fingerprints with a per-account HMAC: stable within an account, different across', () => {
    const keyA = keyedFingerprint(Buffer.alloc(32, 1))
    const keyB = keyedFingerprint(Buffer.alloc(32, 2))
    const a1 = cardParams(card, keyA, false).fingerprint
    expect(cardParams({ ...card, cvc: '999' }, keyA, false).fingerprint).toBe(a1)
    expect(cardParams(card, keyB, false).fingerprint).not.toBe(a1)
    expect(cardParams({ ...card, number: '4242424242424241' }, keyA, false).fingerprint).not.toBe(
      a1,
    )
    expect(a1).not.toContain('4242')
  })

  it('fills every documented card field from the BIN', () => {
    expect(
      cardParams({ ...card, number: '5555555555554444' }, keyedFingerprint(Buffer.alloc(32)), true),
    ).toMatchObject({
      bin: '555555',
      brand: 'MASTERCARD',
      country_isoa2: 'MX',
      country_isoa3: 'MEX',
      country_isonumber: '484',
      enable3ds: true,
      last_4_digits: '4444',
    })
  })

  it('treats a card as valid through its expiration month', () => {
    const now = new Date('2030-03-31T23:59:00Z')
    expect(isCardExpired(card, now)).toBe(false)
    expect(isCardExpired(card, new Date('2030-04-01T00:00:00Z'))).toBe(true)
    expect(isCardExpired({ ...card, expiration_year: 2029, expiration_month: 12 }, now)).toBe(true)
  })
})

describe('canonicalJson', () => {
  it('is the same for any key order and parses back to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const shuffled = JSON.parse(JSON.stringify(value), (_, entry) =>
          typeof entry === 'object' && entry !== null && !Array.isArray(entry)
            ? Object.fromEntries(Object.entries(entry).reverse())
            : entry,
        )
        expect(canonicalJson(shuffled)).toBe(canonicalJson(value))
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)))
      }),
    )
  })
})

describe('idempotency cache', () => {
  const ok = async () => ({
    status: 201,
    body: '{}',
    headers: {},
    warnings: new IntegrationWarnings(),
  })

  it('forgets keys after their time to live and beyond its size', async () => {
    const expiring = createIdempotencyCache({
      idempotency: createMemoryIdempotencyRecords({ ttlMs: 0, maxKeysPerAccount: 10 }),
    })
    await expiring.run('a', 'k', 'f1', ok)
    expect((await expiring.run('a', 'k', 'f2', ok)).replayed).toBe(false)

    const small = createIdempotencyCache({
      idempotency: createMemoryIdempotencyRecords({ ttlMs: 60_000, maxKeysPerAccount: 2 }),
    })
    for (const key of ['k1', 'k2', 'k3']) await small.run('a', key, 'f', ok)
    expect((await small.run('a', 'k1', 'other', ok)).replayed).toBe(false)
    expect((await small.run('a', 'k3', 'f', ok)).replayed).toBe(true)
  })

  it('does not store server errors, so a retry runs again', async () => {
    const cache = createIdempotencyCache({ idempotency: createMemoryIdempotencyRecords() })
    let runs = 0
    const failing = async () => {
      runs++
      return { status: 503, body: '{}', headers: {}, warnings: new IntegrationWarnings() }
    }
    await cache.run('a', 'k', 'f', failing)
    await cache.run('a', 'k', 'f', failing)
    expect(runs).toBe(2)
  })
})

describe('DueHeap', () => {
  type Operation =
    | { op: 'add'; dueAt: number }
    | { op: 'remove'; pick: number }
    | { op: 'takeDue'; now: number }
  const operation = fc.oneof(
    {
      arbitrary: fc.record({
        op: fc.constant('add' as const),
        dueAt: fc.integer({ min: 0, max: 4 }),
      }),
      weight: 4,
    },
    { arbitrary: fc.record({ op: fc.constant('remove' as const), pick: fc.nat() }), weight: 1 },
    {
      arbitrary: fc.record({
        op: fc.constant('takeDue' as const),
        now: fc.integer({ min: 0, max: 4 }),
      }),
      weight: 1,
    },
  )

  it('finds the earliest items it is asked for, in due order, ties in the order they were added', () => {
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 200 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 1, max: 4 }),
        (operations: Operation[], count, divisor) => {
          const heap = new DueHeap<number>()
          // What the heap should hold: each item, its due time and when it was added.
          let model: { item: number; dueAt: number; added: number }[] = []
          const byDue = (a: (typeof model)[0], b: (typeof model)[0]) =>
            a.dueAt - b.dueAt || a.added - b.added
          let added = 0
          for (const step of operations) {
            if (step.op === 'add') {
              heap.add(added, step.dueAt)
              model.push({ item: added, dueAt: step.dueAt, added })
              added++
            } else if (step.op === 'remove' && model.length > 0) {
              const { item } = model[step.pick % model.length] as (typeof model)[0]
              expect(heap.remove(item)).toBe(true)
              model = model.filter((entry) => entry.item !== item)
            } else if (step.op === 'takeDue') {
              const [first] = [...model].sort(byDue)
              const expected =
                first !== undefined && first.dueAt <= step.now ? first.item : undefined
              expect(heap.takeDue(step.now)).toBe(expected)
              model = model.filter((entry) => entry.item !== expected)
            }
          }
          const accept = (item: number) => item % divisor === 0
          expect(heap.earliest(count, accept)).toEqual(
            [...model]
              .sort(byDue)
              .filter(({ item }) => accept(item))
              .slice(0, count)
              .map(({ item }) => item),
          )
        },
      ),
    )
  })
})

describe('keyed lock', () => {
  it('runs tasks of one key one at a time, and other keys freely', async () => {
    const lock = createKeyedLock()
    const order: string[] = []
    let release: () => void = () => {}
    const first = lock.run('a', () =>
      new Promise<void>((resolve) => (release = resolve)).then(() => order.push('a1')),
    )
    const second = lock.run('a', async () => order.push('a2'))
    await lock.run('b', async () => order.push('b1'))
    release()
    await Promise.all([first, second])
    expect(order).toEqual(['b1', 'a1', 'a2'])
    // A failed task does not block the next one.
    await expect(lock.run('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    )
    expect(await lock.run('a', async () => 'next')).toBe('next')
  })
})

describe('CLI arguments', () => {
  it('reads every flag', () => {
    expect(
      parseCliArguments([
        '--port',
        '5000',
        '--host',
        '0.0.0.0',
        '--account',
        'a:sk_a:pk_a',
        '--account',
        'b:sk_b',
        '--time-scale',
        '0.5',
        '--signing-secret',
        'whsec_abc',
        '--public-url',
        'https://sandbox.example.test',
        '--max-connections',
        '50',
        '--max-connections-per-address',
        '5',
        '--cors-origin',
        'https://shop.example',
        '--cors-origin',
        'http://localhost:3000',
        '--max-declined-instruments',
        '3',
        '--processor',
        './voucher.js',
        '--processor',
        '@acme/wallet-processor',
      ]),
    ).toEqual({
      kind: 'start',
      quiet: false,
      logFormat: undefined,
      shutdownTimeoutMs: 10_000,
      processorModules: ['./voucher.js', '@acme/wallet-processor'],
      sources: expect.objectContaining({ port: '--port', processor: '--processor' }),
      options: {
        port: 5000,
        host: '0.0.0.0',
        startupTimeoutMs: 30_000,
        accounts: [
          { id: 'a', privateKey: 'sk_a', publicKey: 'pk_a' },
          { id: 'b', privateKey: 'sk_b' },
        ],
        timeScale: 0.5,
        signingSecret: 'whsec_abc',
        publicUrl: 'https://sandbox.example.test',
        connections: { maxConnections: 50, maxConnectionsPerAddress: 5 },
        corsOrigins: ['https://shop.example', 'http://localhost:3000'],
        maxDeclinedInstruments: 3,
      },
    })
    expect(parseCliArguments(['--data', './state'])).toMatchObject({ options: { data: './state' } })
    expect(parseCliArguments(['--database', 'postgres://db/sandbox'])).toMatchObject({
      options: { database: 'postgres://db/sandbox' },
    })
    expect(parseCliArguments([])).toMatchObject({ options: { port: 4010, host: '127.0.0.1' } })
    expect(parseCliArguments(['-h'])).toEqual({ kind: 'help' })
  })

  it.each([
    [['--port', 'eighty'], '--port expects a whole number'],
    [['--port', '70000'], '--port expects a whole number'],
    [['--account', 'no-key'], '--account expects ID:PRIVATE_KEY or ID:PRIVATE_KEY:PUBLIC_KEY'],
    [['--account', ':key'], '--account expects ID:PRIVATE_KEY'],
    [['--account', 'a:sk_a:'], '--account expects ID:PRIVATE_KEY'],
    [['--account', 'a:k:with:colons'], '--account expects ID:PRIVATE_KEY'],
    [['--max-declined-instruments', '0'], '--max-declined-instruments expects a whole number'],
    [['--time-scale=-1'], '--time-scale expects a number'],
    [['--time-scale', 'fast'], '--time-scale expects a number'],
    [['--max-connections', '0'], '--max-connections expects a whole number from 1'],
    [['--max-connections', 'many'], '--max-connections expects a whole number from 1'],
    [['--data', 'a', '--database', 'postgres://db/b'], '--data and --database exclude each other'],
    [['--colour'], "Unknown option '--colour'"],
    [['extra'], 'Run chargekit-sandbox --help'],
  ])('refuses %j, saying what is expected', (args, message) => {
    expect(() => parseCliArguments(args)).toThrow(SandboxError)
    expect(() => parseCliArguments(args)).toThrow(message)
  })
})

describe('credential throttle', () => {
  it('forgets failures when their window ends', () => {
    let now = 0
    const throttle = createCredentialThrottle(
      ['acct_a'],
      { maxFailuresPerAddressAndAccount: 2, maxFailuresPerAddress: 10, windowMs: 10_000 },
      () => now,
    )
    throttle.recordFailure('10.0.0.1', 'acct_a')
    now = 4_000
    throttle.recordFailure('10.0.0.1', 'acct_a')
    // The window started at the first failure: 6 s remain.
    expect(throttle.retryAfter('10.0.0.1', 'acct_a')).toBe(6)
    expect(throttle.retryAfter('10.0.0.2', 'acct_a')).toBeUndefined()
    now = 10_000
    expect(throttle.retryAfter('10.0.0.1', 'acct_a')).toBeUndefined()
  })

  it('blocks a source, never an account', () => {
    const throttle = createCredentialThrottle(['acct_a', 'acct_b'], {
      maxFailuresPerAddressAndAccount: 2,
      maxFailuresPerAddress: 3,
    })
    for (let host = 1; host <= 200; host++) {
      throttle.recordFailure(`10.0.1.${host}`, 'acct_a')
      throttle.recordFailure(`10.0.1.${host}`, 'acct_a')
    }
    expect(throttle.retryAfter('10.0.1.7', 'acct_a')).toBeGreaterThan(0)
    expect(throttle.retryAfter('10.0.1.7', 'acct_b')).toBeUndefined()
    expect(throttle.retryAfter('10.0.2.1', 'acct_a')).toBeUndefined()
    // A third failure, on another account, reaches the address's own limit.
    throttle.recordFailure('10.0.1.7', 'acct_b')
    expect(throttle.retryAfter('10.0.1.7', 'acct_b')).toBeGreaterThan(0)
  })

  it('counts ids of no account per address only, and keeps a bounded number of sources', () => {
    const throttle = createCredentialThrottle(['acct_a'], {
      maxFailuresPerAddressAndAccount: 1,
      maxFailuresPerAddress: 1,
    })
    throttle.recordFailure('10.0.0.1', 'acct_nobody')
    expect(throttle.retryAfter('10.0.0.2', 'acct_nobody')).toBeUndefined()
    expect(throttle.retryAfter('10.0.0.1', 'acct_nobody')).toBeGreaterThan(0)
    // Ten thousand more addresses push the first one's failures out.
    for (let index = 0; index < 10_000; index++) {
      throttle.recordFailure(`10.1.${index >> 8}.${index & 255}`, undefined)
    }
    expect(throttle.retryAfter('10.0.0.1', undefined)).toBeUndefined()
    expect(throttle.retryAfter('10.1.39.15', undefined)).toBeGreaterThan(0)
  })

  it('keys a client by its IPv4 address, an IPv6 one by its /64 network', () => {
    const from = (remoteAddress: string) =>
      clientAddress({ incoming: { socket: { remoteAddress } } } as never)
    expect(from('192.0.2.7')).toBe('192.0.2.7')
    expect(from('::ffff:192.0.2.7')).toBe('192.0.2.7')
    expect(from('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(from('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64')
    expect(from('2001:db8::9')).toBe('2001:db8:0:0::/64')
    expect(clientAddress(undefined)).toBe('in-process')
  })
})

describe('startSandbox options', () => {
  it.each([
    [
      { timeScale: 'fast' },
      'startSandbox: timeScale must be a number >= 0 (1 = real time, 0.001 = 1000x faster); got "fast"',
    ],
    [
      { timescale: 0.01 },
      'startSandbox: unknown option timescale (did you mean timeScale?); the options are port, host,',
    ],
    [
      { connections: { maxConnection: 5 } },
      'startSandbox: unknown option connections.maxConnection (did you mean maxConnections?); the options are headersTimeoutMs, receiveTimeoutMs, maxConnections, maxConnectionsPerAddress',
    ],
    [
      { rateLimit: { requestsPerSecond: 0 } },
      'startSandbox: rateLimit.requestsPerSecond must be a number > 0; got 0',
    ],
    [
      {
        accounts: [{ id: 'a', privateKey: 'sk_a', rateLimit: { requestsPerSecond: 5, burst: 0 } }],
      },
      'startSandbox: accounts.0.rateLimit.burst must be a number >= 1',
    ],
    [{ signingSecret: '' }, 'startSandbox: signingSecret must be a secret such as whsec_<base64>'],
    [
      { logger: console.log },
      'startSandbox: logger must be an object with info, warn, error methods',
    ],
    [{ port: 70_000 }, 'startSandbox: port must be a TCP port from 0 to 65535; got 70000'],
  ])('refuses %j, naming the option and what it takes', async (options, message) => {
    const start = startSandbox(options as never)
    await expect(start).rejects.toThrow(SandboxError)
    await expect(start).rejects.toThrow(message)
  })
})

describe('where state lives', () => {
  it.each([
    [
      { data: './a', database: 'postgres://db/b' },
      'Give at most one of store, data and database (got data and database)',
    ],
    [
      { store: createMemoryStore(), data: './a' },
      'Give at most one of store, data and database (got store and data)',
    ],
    [{ data: ' ' }, 'data must be the path of a folder'],
    [{ database: 'mysql://user:s3cret@db/sandbox' }, 'database must be a PostgreSQL URL'],
    // Nothing listens on port 1: the reason is given, never the URL and its password.
    [
      { database: 'postgres://user:s3cret@127.0.0.1:1/sandbox' },
      'Cannot connect to the PostgreSQL database',
    ],
  ])('startSandbox refuses %j, saying why', async (options, message) => {
    const start = startSandbox({ port: 0, ...options })
    await expect(start).rejects.toThrow(SandboxError)
    await expect(start).rejects.toThrow(message)
    await expect(start).rejects.not.toThrow('s3cret')
  })
})
