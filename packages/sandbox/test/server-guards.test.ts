import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  holdSlowClients,
  openConnection,
  receivedUntilClosed,
  sendHeadersSlowly,
} from '../../../scripts/raw-connection'
import { type Sandbox, SandboxError, startSandbox } from '../src/index'
import { authorization, eventually, testCard } from '../src/testing/index'

// What a client on the network can do to the sandbox's server before it has any credentials:
// big bodies, guessed keys, a forged Host header, slow or many connections.

const guessed = { id: 'acct_guessed', key: 'sk_guessed_0123456789' }
const spread = { id: 'acct_spread', key: 'sk_spread_0123456789' }
const dashboardUser = { id: 'acct_dashboard', key: 'sk_dashboard_0123456789' }
const throttle = { maxFailuresPerAddressAndAccount: 3, maxFailuresPerAddress: 5, windowMs: 60_000 }

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
}

/**
 * One request over node:http, which (unlike fetch) may send a chosen Host header, a body in
 * chunks without Content-Length, and from another loopback address (127.0.0.0/8 is all local).
 */
function send(
  url: string,
  options: {
    method?: string
    headers?: Record<string, string>
    chunks?: readonly string[]
    from?: string
  } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        agent: false,
        ...(options.from === undefined ? {} : { localAddress: options.from }),
      },
      (incoming) => {
        const parts: Buffer[] = []
        incoming.on('data', (part: Buffer) => parts.push(part))
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            text: Buffer.concat(parts).toString('utf8'),
          }),
        )
      },
    )
    // The server may answer 413 and close while the body is still being sent.
    outgoing.on('error', reject)
    for (const chunk of options.chunks ?? []) outgoing.write(chunk)
    outgoing.end()
  })
}

describe('bodies outside the API', () => {
  let sandbox: Sandbox
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, accounts: [dashboardUser] })
  })
  afterAll(() => sandbox.close())

  const form = { 'content-type': 'application/x-www-form-urlencoded' }

  it.each([['/dashboard/session'], ['/dashboard/sign-out'], ['/anywhere/else']])(
    'refuses a body over 16 KB on %s with 413, counted as it arrives',
    async (path) => {
      // Chunked: no Content-Length announces the size, so only counting can catch it.
      const chunks = Array<string>(40).fill(`account_id=${'a'.repeat(1000)}&`)
      const answer = await send(`${sandbox.url}${path}`, {
        method: 'POST',
        headers: { ...form, origin: sandbox.url },
        chunks,
      })
      expect(answer.status).toBe(413)
      expect(JSON.parse(answer.text)).toMatchObject({ failure_code: '01.01.0000' })
    },
  )

  it('refuses an announced length over 16 KB, and still reads a sign-in form under it', async () => {
    const big = `account_id=${'a'.repeat(17 * 1024)}`
    const refused = await send(`${sandbox.url}/dashboard/session`, {
      method: 'POST',
      headers: { ...form, origin: sandbox.url, 'content-length': String(big.length) },
      chunks: [big],
    })
    expect(refused.status).toBe(413)

    const fields = new URLSearchParams({ account_id: dashboardUser.id, key: dashboardUser.key })
    const signedIn = await send(`${sandbox.url}/dashboard/session`, {
      method: 'POST',
      headers: { ...form, origin: sandbox.url },
      chunks: [fields.toString()],
    })
    expect(signedIn.status).toBe(303)
    expect(signedIn.headers['set-cookie']).toBeDefined()
  })
})

type Credentials = { id: string; key: string }
const wrong = (account: { id: string }): Credentials => ({ id: account.id, key: 'sk_wrong_guess' })

/** An API call and a dashboard sign-in with these credentials, sent from a loopback address. */
function doors(sandbox: Sandbox) {
  return {
    call: (account: Credentials, from: string) =>
      send(`${sandbox.apiUrl}/charges`, {
        headers: { authorization: authorization(account.id, account.key) },
        from,
      }),
    signIn: (account: Credentials, from: string) =>
      send(`${sandbox.url}/dashboard/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        chunks: [new URLSearchParams({ account_id: account.id, key: account.key }).toString()],
        from,
      }),
  }
}

describe('wrong credentials', () => {
  let sandbox: Sandbox
  let call: ReturnType<typeof doors>['call']
  let signIn: ReturnType<typeof doors>['signIn']
  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      accounts: [guessed, spread, dashboardUser],
      credentialThrottle: throttle,
    })
    ;({ call, signIn } = doors(sandbox))
  })
  afterAll(() => sandbox.close())

  it('answers 429 with Retry-After to an address past its limit on an account, even with the right key', async () => {
    for (let attempt = 0; attempt < throttle.maxFailuresPerAddressAndAccount; attempt++) {
      expect((await call(wrong(guessed), '127.0.0.2')).status).toBe(401)
    }
    const blocked = await call(guessed, '127.0.0.2')
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60)
    expect(JSON.parse(blocked.text)).toMatchObject({
      failure_code: '02.01.0000',
      failure_description: 'Too Many Tries',
    })
    // The same address may still use another account, and the account answers elsewhere.
    expect((await call(spread, '127.0.0.2')).status).toBe(200)
    expect((await call(guessed, '127.0.0.3')).status).toBe(200)
  })

  it('blocks an address guessing several accounts once it reaches its own limit', async () => {
    for (const account of [guessed, guessed, spread, spread, dashboardUser]) {
      expect((await call(wrong(account), '127.0.0.4')).status).toBe(401)
    }
    const blocked = await call(dashboardUser, '127.0.0.4')
    expect(blocked.status).toBe(429)
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/)
    expect((await call(dashboardUser, '127.0.0.5')).status).toBe(200)
  })

  it('does not let one address’s success forgive its failures', async () => {
    for (let attempt = 0; attempt < throttle.maxFailuresPerAddressAndAccount - 1; attempt++) {
      expect((await call(wrong(spread), '127.0.0.6')).status).toBe(401)
    }
    expect((await call(spread, '127.0.0.6')).status).toBe(200)
    expect((await call(wrong(spread), '127.0.0.6')).status).toBe(401)
    expect((await call(spread, '127.0.0.6')).status).toBe(429)
  })

  it('throttles dashboard sign-ins, counted with the API’s failures', async () => {
    for (let attempt = 0; attempt < throttle.maxFailuresPerAddressAndAccount - 1; attempt++) {
      expect((await signIn(wrong(dashboardUser), '127.0.0.9')).status).toBe(401)
    }
    // One count for both doors: 2 refused sign-ins and 1 API failure reach the limit of 3.
    expect((await call(wrong(dashboardUser), '127.0.0.9')).status).toBe(401)
    const blocked = await signIn(dashboardUser, '127.0.0.9')
    expect(blocked.status).toBe(429)
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/)
    expect(blocked.text).toContain('Too many refused sign-ins')
    expect(blocked.headers['set-cookie']).toBeUndefined()
    expect((await call(dashboardUser, '127.0.0.9')).status).toBe(429)
    expect((await signIn(dashboardUser, '127.0.0.10')).status).toBe(303)
  })
})

describe('guesses from strangers, on the default throttle', () => {
  let sandbox: Sandbox
  let call: ReturnType<typeof doors>['call']
  let signIn: ReturnType<typeof doors>['signIn']
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, accounts: [guessed, dashboardUser] })
    ;({ call, signIn } = doors(sandbox))
  })
  afterAll(() => sandbox.close())

  // Six addresses, each guessing until it is refused: more guesses on one account than any
  // per-account limit would allow.
  const guessingAddresses = ['2', '3', '4', '5', '6', '7'].map((host) => `127.0.0.${host}`)
  const guessesPerAddress = 21

  it('cannot keep the owner out of the API', async () => {
    const answers: number[] = []
    for (const from of guessingAddresses) {
      for (let attempt = 0; attempt < guessesPerAddress; attempt++) {
        answers.push((await call(wrong(guessed), from)).status)
      }
    }
    expect(answers.length).toBeGreaterThanOrEqual(120)
    expect(answers.filter((status) => status === 401).length).toBeGreaterThanOrEqual(120)
    expect(answers.at(-1)).toBe(429)

    expect((await call(guessed, '127.0.0.8')).status).toBe(200)
    for (const from of guessingAddresses) {
      const refused = await call(guessed, from)
      expect(refused.status).toBe(429)
      expect(refused.headers['retry-after']).toMatch(/^\d+$/)
    }
  })

  it('cannot keep the owner out of the dashboard', async () => {
    const addresses = guessingAddresses.map((address) => address.replace(/\.(\d+)$/, '.1$1'))
    let refused = 0
    for (const from of addresses) {
      for (let attempt = 0; attempt < guessesPerAddress; attempt++) {
        if ((await signIn(wrong(dashboardUser), from)).status === 401) refused++
      }
    }
    expect(refused).toBeGreaterThanOrEqual(120)

    expect((await signIn(dashboardUser, '127.0.0.18')).status).toBe(303)
    for (const from of addresses) {
      expect((await signIn(dashboardUser, from)).status).toBe(429)
    }
  })
})

describe('3-D Secure links', () => {
  const threeDsCharge = {
    charge_type: 'card_onetime',
    amount: 49.9,
    currency: 'EUR',
    events_url: 'http://127.0.0.1:9/events',
    channels: ['card_onetime_simulated_acquirer'],
    instrument_params: { enable3ds: true },
  }

  async function redirectUrl(sandbox: Sandbox, host: string): Promise<URL> {
    const headers = {
      authorization: authorization(sandbox.accounts[0]?.id ?? '', sandbox.accounts[0]?.key ?? ''),
      'content-type': 'application/json',
      host,
    }
    const charge = await send(`${sandbox.apiUrl}/charges`, {
      method: 'POST',
      headers,
      chunks: [JSON.stringify(threeDsCharge)],
    })
    const instrument = await send(`${sandbox.apiUrl}/instruments`, {
      method: 'POST',
      headers,
      chunks: [JSON.stringify(testCard(JSON.parse(charge.text).id))],
    })
    expect(instrument.status).toBe(201)
    return new URL(JSON.parse(instrument.text).redirect.url)
  }

  it('start with the configured public URL, whatever Host the request names', async () => {
    const sandbox = await startSandbox({
      port: 0,
      publicUrl: 'https://pay.example.test/',
      deliverEvents: false,
    })
    try {
      const url = await redirectUrl(sandbox, 'attacker.example')
      expect(url.origin).toBe('https://pay.example.test')
      expect(url.pathname).toMatch(/^\/v2\/instruments\/in_\w+\/redirect$/)
      expect(url.searchParams.get('public_key')).toBe(sandbox.accounts[0]?.publicKey)
    } finally {
      await sandbox.close()
    }
  })

  it('start with the listening URL by default, not the Host header', async () => {
    const sandbox = await startSandbox({ port: 0, deliverEvents: false })
    try {
      const url = await redirectUrl(sandbox, 'attacker.example')
      expect(url.origin).toBe(sandbox.url)
      // The link works: the page is served at that address.
      expect((await fetch(url)).status).toBe(200)
    } finally {
      await sandbox.close()
    }
  })

  it.each([
    'ftp://pay.example.test',
    'https://pay.example.test/sandbox',
    'https://user:secret@pay.example.test',
    'pay.example.test',
  ])('refuses the public URL %s', async (publicUrl) => {
    await expect(startSandbox({ port: 0, publicUrl })).rejects.toThrow(SandboxError)
    await expect(startSandbox({ port: 0, publicUrl })).rejects.toThrow(
      /publicUrl.*http\(s\) origin/,
    )
  })
})

describe('slow and many connections', () => {
  const open = (sandbox: Sandbox, from?: string) => openConnection(sandbox.url, from)
  const listCharges = (sandbox: Sandbox, from: string) =>
    send(`${sandbox.apiUrl}/charges`, {
      headers: { authorization: authorization('acct_sandbox', 'sk_sandbox') },
      from,
    })
  /** A request on an open socket, leaving it open (keep-alive) once answered. */
  const answerOn = (socket: import('node:net').Socket) =>
    new Promise<string>((resolve) => {
      socket.once('data', (data: Buffer) => resolve(data.toString('latin1')))
      socket.write('GET /dashboard HTTP/1.1\r\nHost: sandbox\r\n\r\n')
    })

  it('answers a request from another address while 1,100 slow clients hold their connections', async () => {
    // The header deadline is lifted here, so that only the connection caps keep the place.
    const sandbox = await startSandbox({
      port: 0,
      connections: { headersTimeoutMs: 120_000, receiveTimeoutMs: 120_000 },
    })
    const attackers = ['2', '3', '4', '5', '6', '7'].map((host) => `127.0.0.${host}`)
    const slow = await holdSlowClients(sandbox.url, 1_100, attackers)
    try {
      const answer = await listCharges(sandbox, '127.0.0.8')
      expect(answer.status).toBe(200)
      // Answered while the slow clients still held (nearly) every place the server has.
      expect(slow.open()).toBeGreaterThanOrEqual(900)
      expect(slow.answered()).toBe(0)
    } finally {
      slow.close()
      await sandbox.close()
    }
  })

  it('holds at most maxConnectionsPerAddress connections from one address', async () => {
    const sandbox = await startSandbox({
      port: 0,
      connections: {
        maxConnectionsPerAddress: 3,
        headersTimeoutMs: 60_000,
        receiveTimeoutMs: 60_000,
      },
    })
    const slow = await holdSlowClients(sandbox.url, 10, ['127.0.0.2'])
    try {
      await eventually(() => expect(slow.open()).toBe(3))
      expect((await listCharges(sandbox, '127.0.0.3')).status).toBe(200)
    } finally {
      slow.close()
      await sandbox.close()
    }
  })

  it('closes the longest-idle keep-alive connection first at the cap', async () => {
    const sandbox = await startSandbox({ port: 0, connections: { maxConnections: 2 } })
    try {
      const [first, second] = [await open(sandbox, '127.0.0.2'), await open(sandbox, '127.0.0.3')]
      if (first === undefined || second === undefined) throw new Error('not connected')
      const firstClosed = receivedUntilClosed(first)
      expect(await answerOn(first)).toMatch(/^HTTP\/1\.1 200 /)
      expect(await answerOn(second)).toMatch(/^HTTP\/1\.1 200 /)
      // Both idle now; a third client gets the place of the one idle longest.
      expect((await listCharges(sandbox, '127.0.0.4')).status).toBe(200)
      await firstClosed
      expect(second.destroyed).toBe(false)
      second.destroy()
    } finally {
      await sandbox.close()
    }
  })

  it('makes room for a new address by closing a slow connection of the address holding most', async () => {
    const sandbox = await startSandbox({
      port: 0,
      connections: { maxConnections: 4, headersTimeoutMs: 60_000, receiveTimeoutMs: 60_000 },
    })
    const hog = await holdSlowClients(sandbox.url, 3, ['127.0.0.2'])
    const other = await holdSlowClients(sandbox.url, 1, ['127.0.0.3'])
    try {
      // Full: another connection from the address holding most is not let in.
      const refused = await holdSlowClients(sandbox.url, 1, ['127.0.0.2'])
      await eventually(() => expect(refused.open()).toBe(0))
      expect((await listCharges(sandbox, '127.0.0.4')).status).toBe(200)
      await eventually(() => expect(hog.open()).toBe(2))
      expect(other.open()).toBe(1)
    } finally {
      hog.close()
      other.close()
      await sandbox.close()
    }
  })

  it('cuts off a client that sends its headers byte by byte', async () => {
    const sandbox = await startSandbox({
      port: 0,
      connections: { headersTimeoutMs: 100, receiveTimeoutMs: 200 },
    })
    const socket = await open(sandbox)
    const whenClosed = receivedUntilClosed(socket)
    const slow = sendHeadersSlowly(socket, 'GET /v2/charges HTTP/1.1\r\nHost: sandbox\r\n')
    try {
      expect(await whenClosed).toMatch(/^HTTP\/1\.1 408 /)
      expect(slow.sent()).toBeLessThan(slow.headerLength)
    } finally {
      slow.stop()
      await sandbox.close()
    }
  })

  it.each([
    [
      { connections: { maxConnections: 0 } },
      /connections\.maxConnections must be a whole number >= 1/,
    ],
    [
      { connections: { headersTimeoutMs: 500, receiveTimeoutMs: 100 } },
      /headersTimeoutMs cannot be longer/,
    ],
    [
      { credentialThrottle: { windowMs: 0.5 } },
      /credentialThrottle\.windowMs must be a whole number/,
    ],
  ])('names a bad limit: %j', async (options, message) => {
    await expect(startSandbox({ port: 0, ...options })).rejects.toThrow(message)
  })

  it('refuses connections beyond the cap, and accepts again once one closes', async () => {
    const sandbox = await startSandbox({ port: 0, connections: { maxConnections: 2 } })
    try {
      const held = [await open(sandbox), await open(sandbox)]
      const refused = await open(sandbox)
      expect(await receivedUntilClosed(refused)).toBe('')
      held[0]?.destroy()
      // The server counts the closed connection on its next turn.
      await eventually(
        async () => {
          const answer = await fetch(`${sandbox.apiUrl}/charges`, {
            headers: { authorization: authorization('acct_sandbox', 'sk_sandbox') },
          })
          expect(answer.status).toBe(200)
        },
        { timeoutMs: 2_000 },
      )
      held[1]?.destroy()
    } finally {
      await sandbox.close()
    }
  })
})
