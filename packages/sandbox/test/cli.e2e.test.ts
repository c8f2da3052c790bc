import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { afterAll, describe, it } from 'vitest'
import { parseCliArguments } from '../src/cli-options'
import { authorization, testCard } from '../src/testing/index'
import { cli, killRunningClis } from './cli-process'

// Not after each test: the tests run at once, each with processes of its own.
afterAll(killRunningClis)

// Six processes starting at once on a busy machine may take a while.
describe.concurrent('chargekit-sandbox', { timeout: 20_000 }, () => {
  it('prints its URL and credentials, serves the API, logs requests and deliveries, and stops cleanly on SIGINT', async ({
    expect,
  }) => {
    const run = cli([
      '--port',
      '0',
      '--log-format',
      'text',
      '--account',
      'acct_cli:sk_cli_key:pk_cli',
      '--account',
      'acct_two:sk_two',
      '--time-scale',
      '0.01',
      '--allow-http-events-url',
    ])
    const [, url] = await run.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/)
    const { stdout } = run.output()
    expect(stdout).toContain(`API base URL: ${url}/v2`)
    expect(stdout).toContain('acct_cli / sk_cli_key   public key pk_cli')
    // Without a public key on the flag, one is generated and printed.
    const generated = stdout.match(/acct_two \/ sk_two {3}public key (pk_\S+)/)?.[1]
    expect(generated).toMatch(/^pk_[\w-]{16}$/)
    const browserCall = await fetch(`${url}/v2/charges/types`, {
      headers: { authorization: authorization(generated ?? '', '') },
    })
    expect(browserCall.status).toBe(200)
    await browserCall.arrayBuffer()
    // A trailing slash is served, and the log line says what the client would have sent.
    const response = await fetch(`${url}/v2/charges/`, {
      headers: { authorization: authorization('acct_cli', 'sk_cli_key') },
    })
    expect(response.status).toBe(200)
    await response.arrayBuffer()
    const [line] = await run.waitFor(/^GET \/v2\/charges 200 .*$/m)
    expect(line).toContain('account=acct_cli')
    expect(line).toContain('warnings=trailing_slash (instead: GET /v2/charges)')
    // With --allow-http-events-url, plain http to any host, each attempt logged.
    const created = await fetch(`${url}/v2/charges`, {
      method: 'POST',
      headers: {
        authorization: authorization('acct_cli', 'sk_cli_key'),
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        charge_type: 'card_onetime',
        amount: 10,
        currency: 'EUR',
        // A docker-compose style host; `.invalid` never resolves, so the attempt fails on the name.
        events_url: 'http://shop.invalid:3000/webhooks?token=s3cret',
      }),
    })
    expect(created.status).toBe(201)
    await created.arrayBuffer()
    const [delivery] = await run.waitFor(/^deliver charge\.created ev_\w+ .*$/m)
    expect(delivery).toMatch(
      /^deliver charge\.created ev_\w+ to http:\/\/shop\.invalid:3000\/webhooks\?… failed \((ENOTFOUND|EAI_AGAIN)\) duration_ms=\d+ attempt=first account=acct_cli$/,
    )
    expect(run.output().stdout).not.toContain('s3cret')
    run.child.kill('SIGINT')
    expect(await run.exited).toBe(0)
    expect(run.output().stdout).toContain('stopping the sandbox')
    // Request logs never carry the credentials.
    expect(run.output().stdout.split('Press Ctrl-C')[1]).not.toContain('sk_cli_key')
  })

  it("prints each account's signing secret on a terminal banner, never in JSON lines, and signs with it", async ({
    expect,
  }) => {
    const text = cli(['--port', '0', '--log-format', 'text'])
    const [, url] = await text.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/)
    const [, secret] = await text.waitFor(/^ {4}acct_sandbox {3}(whsec_\S+)$/m)
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    const answer = await fetch(`${url}/v2/test/signing_secret`, {
      headers: { authorization: authorization('acct_sandbox', 'sk_sandbox') },
    })
    expect(await answer.json()).toEqual({ signing_secret: secret })
    text.child.kill('SIGINT')
    expect(await text.exited).toBe(0)

    const json = cli(['--port', '0', '--log-format', 'json'])
    const [banner] = await json.waitFor(/^\{.*listening on.*\}$/m)
    expect(JSON.parse(banner).accounts).toEqual([
      { id: 'acct_sandbox', public_key: 'pk_sandbox', signed_deliveries: true },
    ])
    expect(json.output().stdout).not.toContain('whsec_')
    json.child.kill('SIGINT')
    expect(await json.exited).toBe(0)

    const unsigned = cli(['--port', '0', '--log-format', 'text', '--no-signing'])
    await unsigned.waitFor(/Signing: +off \(--no-signing\)/)
    expect(unsigned.output().stdout).not.toContain('whsec_')
    unsigned.child.kill('SIGINT')
    expect(await unsigned.exited).toBe(0)
    expect(() => parseCliArguments(['--no-signing', '--signing-secret', 'whsec_abc'])).toThrow(
      '--no-signing and --signing-secret exclude each other',
    )
  })

  it('stops quietly when the reader of its output goes away (| head -1)', async ({ expect }) => {
    const run = cli(['--port', '0'])
    const [, url] = await run.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/)
    run.child.stdout?.destroy()
    // The request's log line meets the closed pipe.
    const response = await fetch(`${url}/v2/charges`, {
      headers: { authorization: authorization('acct_sandbox', 'sk_sandbox') },
    })
    await response.arrayBuffer()
    expect(await run.exited).toBe(0)
    expect(run.output().stderr).toBe('')
  })

  it('prints help', async ({ expect }) => {
    const run = cli(['--help'])
    expect(await run.exited).toBe(0)
    expect(run.output().stdout).toContain('Usage: chargekit-sandbox')
    expect(run.output().stdout).toContain('--time-scale')
    expect(run.output().stdout).toContain('--cors-origin <origin>')
    expect(run.output().stdout).toContain('--allow-http-events-url')
    expect(run.output().stdout).toMatch(/--retain-charges <n>[^-]*\(default 5000,/)
  })

  it('says in its banner how many charges it keeps in memory, and how to keep more', async ({
    expect,
  }) => {
    const run = cli(['--port', '0', '--log-format', 'text'])
    const [, state] = await run.waitFor(/ {2}State: +(.*)/)
    expect(state).toContain('memory, the newest 5,000 charges')
    expect(state).toContain('--retain-charges N')
    run.child.kill('SIGINT')
    expect(await run.exited).toBe(0)
  })

  it('checks the flags passed on to startSandbox by its rules, and names a misspelt flag', ({
    expect,
  }) => {
    expect(() => parseCliArguments(['--cors-origin', 'https://shop.example/checkout'])).toThrow(
      '--cors-origin is not an origin; expected scheme://host[:port] with no path, such as https://shop.example; got "https://shop.example/checkout". Run chargekit-sandbox --help for usage.',
    )
    // A database URL may hold a password: never repeated.
    expect(() => parseCliArguments(['--database', 'mysql://u:s3cret@db/x'])).toThrow(
      /^--database must be a PostgreSQL URL, such as postgres:\/\/user:password@localhost:5432\/sandbox\. Run/,
    )
    expect(() => parseCliArguments(['--cors-orign', 'https://shop.example'])).toThrow(
      "Unknown option '--cors-orign' (did you mean --cors-origin?)",
    )
    expect(() => parseCliArguments(['--port'])).toThrow('--port expects a value')
    // An account holds a private key: never repeated either.
    expect(() => parseCliArguments(['--account', 'acct_x:sk_x:pk_x:extra'])).toThrow(
      /^--account expects ID:PRIVATE_KEY or ID:PRIVATE_KEY:PUBLIC_KEY, such as acct_shop:sk_shop_secret:pk_shop\. Run/,
    )
  })

  it('loads the processors a module exports with --processor, serves their channels, and stops on SIGTERM', async ({
    expect,
  }) => {
    const run = cli([
      '--port',
      '0',
      '--log-format',
      'text',
      '--quiet',
      '--processor',
      './test/fixtures/processors/house-bank.mjs',
    ])
    const [, url] = await run.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/)
    // Without --account, the default account.
    expect(run.output().stdout).toContain('acct_sandbox / sk_sandbox   public key pk_sandbox')
    expect(run.output().stdout).toContain('Processor:    house_bank (card_onetime)')
    expect(run.output().stdout).toContain('Processor:    house_wallet (card_recurring)')
    const call = async (path: string, body: unknown) => {
      const response = await fetch(`${url}/v2${path}`, {
        method: 'POST',
        headers: {
          authorization: authorization('acct_sandbox', 'sk_sandbox'),
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      })
      return { status: response.status, body: await response.json() }
    }
    const charge = await call('/charges', {
      charge_type: 'card_onetime',
      amount: 12.5,
      currency: 'EUR',
      events_url: 'https://shop.example/events',
      channels: ['card_onetime_house_bank'],
    })
    expect(charge.status).toBe(201)
    expect(charge.body.channels[0]).toMatchObject({ processor: 'house_bank' })
    // The module's processor decides: its test card ending 0002 is declined.
    const declined = await call(
      '/instruments',
      testCard(charge.body.id, { number: '4000000000000002' }),
    )
    expect(declined).toMatchObject({ status: 402, body: { failure_code: '03.03.0000' } })
    const authorized = await call('/instruments', testCard(charge.body.id))
    expect(authorized).toMatchObject({
      status: 201,
      body: { status: 'authorized', external_ids: { descriptor: 'HOUSE*BANK' } },
    })
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
  })

  it('refuses a bad flag with exit code 2, and a --processor it cannot load with 1, saying what is expected or wrong', async ({
    expect,
  }) => {
    // What each refusal says is proven above and in load-processors.test.ts; here, that the
    // process prints it after its name and exits with the code for a usage error (every flag's
    // the same way) or a failure.
    const port = cli(['--port', 'eighty'])
    const missing = cli([
      '--port',
      '0',
      '--log-format',
      'text',
      '--processor',
      '@acme/missing-processor',
    ])
    expect(await port.exited).toBe(2)
    expect(port.output()).toEqual({
      stdout: '',
      stderr:
        'chargekit-sandbox: --port expects a whole number from 0 to 65535; got "eighty". Run chargekit-sandbox --help for usage.\n',
    })
    // Looked up from the directory it runs in.
    expect(await missing.exited).toBe(1)
    expect(missing.output().stderr).toMatch(
      /^chargekit-sandbox: --processor @acme\/missing-processor: no package "@acme\/missing-processor" in node_modules from \/\S+\/packages\/sandbox upwards; install it, or give a path such as \.\/missing-processor\.js$/m,
    )
  })

  it('on a taken port says so, and suggests a free one set the way the taken one was', async ({
    expect,
  }) => {
    const holder = createServer()
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
    try {
      const taken = (holder.address() as AddressInfo).port
      const byFlag = cli(['--port', String(taken), '--log-format', 'text'])
      const byVariable = cli(['--log-format', 'text'], { PORT: String(taken) })
      expect(await byFlag.exited).toBe(1)
      expect(await byVariable.exited).toBe(1)
      const suggested =
        /^chargekit-sandbox: port (\d+) on 127\.0\.0\.1 is taken: another program listens there \(a sandbox already running\?\)\. Port (\d+) is free: (.*)\n$/
      const [, flagPort, free, flagAdvice] = byFlag.output().stderr.match(suggested) ?? []
      expect(Number(flagPort)).toBe(taken)
      expect(flagAdvice).toBe(`start with --port ${free} (or set CHARGEKIT_PORT=${free})`)
      const [, , freeToo, variableAdvice] = byVariable.output().stderr.match(suggested) ?? []
      expect(variableAdvice).toBe(`set PORT=${freeToo} (or start with --port ${freeToo})`)
      // The port it suggests takes a sandbox.
      const started = cli(['--port', String(free), '--log-format', 'text'])
      await started.waitFor(new RegExp(`listening on http://127\\.0\\.0\\.1:${free}\\b`))
      started.child.kill('SIGINT')
      expect(await started.exited).toBe(0)
    } finally {
      await new Promise((resolve) => holder.close(resolve))
    }
  })
})
