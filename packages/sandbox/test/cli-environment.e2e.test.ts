import { afterAll, describe, expect, it } from 'vitest'
import { parseCliArguments } from '../src/cli-options'
import { authorization, startReceiver } from '../src/testing/index'
import { cli, killRunningClis } from './cli-process'
import { type FreshState, freshDataFolder } from './store-under-test'

const states: FreshState[] = []
afterAll(async () => {
  killRunningClis()
  for (const state of states.splice(0)) await state.remove()
})

describe('settings from the environment', () => {
  it('reads every setting from its variable, as its flag would give it', () => {
    const command = parseCliArguments([], {
      CHARGEKIT_PORT: '5000',
      CHARGEKIT_HOST: '0.0.0.0',
      CHARGEKIT_ACCOUNTS: 'a:sk_a:pk_a, b:sk_b',
      CHARGEKIT_TIME_SCALE: '0.5',
      CHARGEKIT_SIGNING_SECRET: 'whsec_abc',
      CHARGEKIT_ALLOW_HTTP_EVENTS_URL: 'true',
      CHARGEKIT_PUBLIC_URL: 'https://sandbox.example.test',
      CHARGEKIT_MAX_CONNECTIONS: '50',
      CHARGEKIT_RETAIN_CHARGES: '100',
      CHARGEKIT_CORS_ORIGINS: 'https://shop.example,http://localhost:3000',
      CHARGEKIT_MAX_DECLINED_INSTRUMENTS: '3',
      CHARGEKIT_DATABASE_URL: 'postgres://db/sandbox',
      CHARGEKIT_STARTUP_TIMEOUT: '2.5',
      CHARGEKIT_SHUTDOWN_TIMEOUT: '0',
      CHARGEKIT_PROCESSORS: './voucher.js',
      CHARGEKIT_LOG_FORMAT: 'json',
      CHARGEKIT_QUIET: '1',
    })
    expect(command).toEqual({
      kind: 'start',
      quiet: true,
      logFormat: 'json',
      shutdownTimeoutMs: 0,
      processorModules: ['./voucher.js'],
      sources: expect.objectContaining({
        port: 'CHARGEKIT_PORT',
        database: 'CHARGEKIT_DATABASE_URL',
      }),
      options: {
        port: 5000,
        host: '0.0.0.0',
        startupTimeoutMs: 2500,
        accounts: [
          { id: 'a', privateKey: 'sk_a', publicKey: 'pk_a' },
          { id: 'b', privateKey: 'sk_b' },
        ],
        timeScale: 0.5,
        signingSecret: 'whsec_abc',
        allowHttpEventsUrl: true,
        publicUrl: 'https://sandbox.example.test',
        connections: { maxConnections: 50 },
        retainCharges: 100,
        corsOrigins: ['https://shop.example', 'http://localhost:3000'],
        maxDeclinedInstruments: 3,
        database: 'postgres://db/sandbox',
      },
    })
  })

  it('lets a flag win over its variable, the CHARGEKIT_ variable over the conventional one, and an empty one count as unset', () => {
    const env = { CHARGEKIT_PORT: '6000', PORT: '7000' }
    expect(parseCliArguments(['--port', '5000'], env)).toMatchObject({ options: { port: 5000 } })
    expect(parseCliArguments([], env)).toMatchObject({ options: { port: 6000 } })
    expect(parseCliArguments([], { PORT: '7000' })).toMatchObject({ options: { port: 7000 } })
    expect(parseCliArguments([], { CHARGEKIT_PORT: '', PORT: '7000' })).toMatchObject({
      options: { port: 7000 },
    })
    expect(parseCliArguments([], { DATABASE_URL: 'postgres://db/app' })).toMatchObject({
      options: { database: 'postgres://db/app' },
      sources: { database: 'DATABASE_URL' },
    })
    expect(parseCliArguments([], { CHARGEKIT_QUIET: 'off' })).toMatchObject({ quiet: false })
  })

  it('keeps state in one place: a database variable wins over CHARGEKIT_DATA, a state flag over both', () => {
    const env = { CHARGEKIT_DATA: '/data', DATABASE_URL: 'postgres://db/sandbox' }
    const fromVariables = parseCliArguments([], env)
    expect(fromVariables).toMatchObject({ options: { database: 'postgres://db/sandbox' } })
    expect(fromVariables).not.toHaveProperty('options.data')
    const fromFlag = parseCliArguments(['--data', './state'], env)
    expect(fromFlag).toMatchObject({ options: { data: './state' } })
    expect(fromFlag).not.toHaveProperty('options.database')
    expect(parseCliArguments([], { CHARGEKIT_DATA: '/data' })).toMatchObject({
      options: { data: '/data' },
    })
  })

  it.each([
    [
      { CHARGEKIT_PORT: 'eighty' },
      'CHARGEKIT_PORT expects a whole number from 0 to 65535; got "eighty"',
    ],
    [{ PORT: '-1' }, 'PORT expects a whole number from 0 to 65535; got "-1"'],
    [
      { CHARGEKIT_QUIET: 'maybe' },
      'CHARGEKIT_QUIET expects true or false (or 1 or 0); got "maybe"',
    ],
    [{ CHARGEKIT_LOG_FORMAT: 'xml' }, 'CHARGEKIT_LOG_FORMAT expects text or json; got "xml"'],
    [
      { CHARGEKIT_SHUTDOWN_TIMEOUT: 'soon' },
      'CHARGEKIT_SHUTDOWN_TIMEOUT expects a number >= 0, such as 10 or 0.5; got "soon"',
    ],
    [
      { CHARGEKIT_CORS_ORIGINS: 'https://shop.example,https://shop.example/x' },
      'CHARGEKIT_CORS_ORIGINS (item 2 of the list) is not an origin',
    ],
  ])('refuses %j, naming the variable and what it takes', (env, message) => {
    expect(() => parseCliArguments([], env)).toThrow(message)
  })

  it.each([
    [
      { CHARGEKIT_ACCOUNTS: 'acct_x:sk_s3cret:pk_x:extra' },
      'CHARGEKIT_ACCOUNTS (item 1 of the list) expects ID:PRIVATE_KEY',
    ],
    [{ DATABASE_URL: 'mysql://user:s3cret@db/x' }, 'DATABASE_URL must be a PostgreSQL URL'],
    [{ CHARGEKIT_SIGNING_SECRET: ' ' }, 'CHARGEKIT_SIGNING_SECRET must be a secret'],
  ])('never repeats a secret it refuses: %j', (env, message) => {
    expect(() => parseCliArguments([], env)).toThrow(message)
    expect(() => parseCliArguments([], env)).not.toThrow(/s3cret|got/)
  })
})

describe('chargekit-sandbox configured by its environment', { timeout: 30_000 }, () => {
  it('starts with no flags, logs one JSON object a line without secrets, answers /readyz, and stops on SIGTERM', async () => {
    const state = await freshDataFolder()
    states.push(state)
    const receiver = await startReceiver(() => 204)
    const run = cli([], {
      CHARGEKIT_PORT: '0',
      CHARGEKIT_DATA: state.options.data,
      CHARGEKIT_ACCOUNTS: 'acct_env:sk_env_s3cret:pk_env',
      CHARGEKIT_LOG_FORMAT: 'json',
    })
    const [, url] = await run.waitFor(
      /"msg":"chargekit sandbox listening on (http:\/\/127\.0\.0\.1:\d+)"/,
    )
    const lines = () =>
      run
        .output()
        .stdout.trim()
        .split('\n')
        .map((line) => JSON.parse(line))
    expect(lines().at(-1)).toMatchObject({
      level: 'info',
      url,
      state: `an embedded database in ${state.options.data}`,
      accounts: [{ id: 'acct_env', public_key: 'pk_env' }],
    })
    const ready = await fetch(`${url}/readyz`)
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }])
    const created = await fetch(`${url}/v2/charges`, {
      method: 'POST',
      headers: {
        authorization: authorization('acct_env', 'sk_env_s3cret'),
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        charge_type: 'card_onetime',
        amount: 10,
        currency: 'EUR',
        events_url: `${receiver.url}/hooks`,
      }),
    })
    expect(created.status).toBe(201)
    const requestId = created.headers.get('request-id')
    await run.waitFor(/"msg":"deliver charge\.created /)
    const entries = lines()
    expect(entries.find((entry) => entry.request_id === requestId)).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      level: 'info',
      msg: 'POST /v2/charges 201',
      method: 'POST',
      path: '/v2/charges',
      status: 201,
      duration_ms: expect.any(Number),
      account: 'acct_env',
      request_id: requestId,
    })
    expect(entries.find((entry) => entry.event_type === 'charge.created')).toMatchObject({
      level: 'info',
      event_id: expect.stringMatching(/^ev_/),
      url: `${receiver.url}/hooks`,
      status: 204,
      attempt: 'first',
      duration_ms: expect.any(Number),
      account: 'acct_env',
    })
    // Probes are not logged: they would drown the log.
    expect(entries.some((entry) => entry.path === '/readyz')).toBe(false)

    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
    expect(lines().at(-1)).toMatchObject({ msg: 'received SIGTERM, stopping the sandbox' })
    const { stdout, stderr } = run.output()
    expect(`${stdout}${stderr}`).not.toContain('s3cret')
    await receiver.stop()
  })

  it('stops at once on SIGTERM while it waits for its database, with exit code 0', async () => {
    // Port 1: nothing listens there, so the database never answers.
    const run = cli(['--port', '0', '--log-format', 'text', '--startup-timeout', '60'], {
      DATABASE_URL: 'postgres://sandbox:s3cret@127.0.0.1:1/sandbox',
    })
    await run.waitFor(/^starting on http:\/\/127\.0\.0\.1:\d+: opening the store/m)
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
    expect(run.output().stdout).not.toContain('Press Ctrl-C')
    expect(`${run.output().stdout}${run.output().stderr}`).not.toContain('s3cret')
  })

  it('prints its version', async () => {
    const run = cli(['--version'])
    expect(await run.exited).toBe(0)
    expect(run.output().stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/)
  })

  it('hides a private key given in a variable from its readable banner', async () => {
    const run = cli(['--port', '0', '--log-format', 'text'], {
      CHARGEKIT_ACCOUNTS: 'acct_env:sk_env_s3cret:pk_env',
    })
    await run.waitFor(/Press Ctrl-C to stop/)
    expect(run.output().stdout).toContain(
      'acct_env / (the key in CHARGEKIT_ACCOUNTS)   public key pk_env',
    )
    expect(run.output().stdout).not.toContain('s3cret')
    run.child.kill('SIGINT')
    expect(await run.exited).toBe(0)
  })
})
