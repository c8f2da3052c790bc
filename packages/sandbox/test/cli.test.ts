import { afterEach, describe, expect, it } from 'vitest'
import { cli, killRunningClis } from './cli-process'
import { basicAuth } from './sandbox-harness'

afterEach(killRunningClis)

describe('chargekit-sandbox', () => {
  it('prints its URL and credentials, serves the API and stops cleanly on SIGINT', async () => {
    const run = cli([
      '--port',
      '0',
      '--account',
      'acct_cli:sk_cli_key:pk_cli',
      '--account',
      'acct_two:sk_two',
      '--time-scale',
      '0.01',
    ])
    const [, url] = await run.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/)
    const { stdout } = run.output()
    expect(stdout).toContain(`API base URL: ${url}/v2`)
    expect(stdout).toContain('acct_cli / sk_cli_key   public key pk_cli')
    // Without a public key on the flag, one is generated and printed.
    const generated = stdout.match(/acct_two \/ sk_two {3}public key (pk_\S+)/)?.[1]
    expect(generated).toMatch(/^pk_[\w-]{16}$/)
    const browserCall = await fetch(`${url}/v2/charges/types`, {
      headers: { authorization: basicAuth({ id: generated ?? '', key: '' }) },
    })
    expect(browserCall.status).toBe(200)
    await browserCall.arrayBuffer()
    // A trailing slash is served, and the log line says what the client would have sent.
    const response = await fetch(`${url}/v2/charges/`, {
      headers: { authorization: basicAuth({ id: 'acct_cli', key: 'sk_cli_key' }) },
    })
    expect(response.status).toBe(200)
    await response.arrayBuffer()
    const [line] = await run.waitFor(/^GET \/v2\/charges 200 .*$/m)
    expect(line).toContain('account=acct_cli')
    expect(line).toContain('warnings=trailing_slash (instead: GET /v2/charges)')
    run.child.kill('SIGINT')
    expect(await run.exited).toBe(0)
    expect(run.output().stdout).toContain('stopping the sandbox')
    // Request logs never carry the credentials.
    expect(run.output().stdout.split('Press Ctrl-C')[1]).not.toContain('sk_cli_key')
  })

  it('stops on SIGTERM too, with the default account', async () => {
    const run = cli(['--port', '0', '--quiet'])
    await run.waitFor(/listening on/)
    expect(run.output().stdout).toContain('acct_sandbox / sk_sandbox   public key pk_sandbox')
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
  })

  it('takes plain http events_url to any host with --allow-http-events-url, logging each attempt', async () => {
    const run = cli(['--port', '0', '--time-scale', '0.001', '--allow-http-events-url'])
    const [, url] = await run.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/)
    const response = await fetch(`${url}/v2/charges`, {
      method: 'POST',
      headers: {
        authorization: basicAuth({ id: 'acct_sandbox', key: 'sk_sandbox' }),
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
    expect(response.status).toBe(201)
    await response.arrayBuffer()
    const [line] = await run.waitFor(/^deliver charge\.created ev_\w+ .*$/m)
    expect(line).toMatch(
      /^deliver charge\.created ev_\w+ to http:\/\/shop\.invalid:3000\/webhooks\?… failed \((ENOTFOUND|EAI_AGAIN)\) ms=\d+ attempt=first account=acct_sandbox$/,
    )
    expect(run.output().stdout).not.toContain('s3cret')
  })

  it('stops quietly when the reader of its output goes away (| head -1)', async () => {
    const run = cli(['--port', '0'])
    const [, url] = await run.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/)
    run.child.stdout?.destroy()
    // The request's log line meets the closed pipe.
    const response = await fetch(`${url}/v2/charges`, {
      headers: { authorization: basicAuth({ id: 'acct_sandbox', key: 'sk_sandbox' }) },
    })
    await response.arrayBuffer()
    expect(await run.exited).toBe(0)
    expect(run.output().stderr).toBe('')
  })

  it('prints help', async () => {
    const run = cli(['--help'])
    expect(await run.exited).toBe(0)
    expect(run.output().stdout).toContain('Usage: chargekit-sandbox')
    expect(run.output().stdout).toContain('--time-scale')
    expect(run.output().stdout).toContain('--cors-origin <origin>')
    expect(run.output().stdout).toContain('--allow-http-events-url')
  })

  it('refuses a bad flag with a message saying what is expected', async () => {
    const run = cli(['--port', 'eighty'])
    expect(await run.exited).toBe(1)
    expect(run.output().stderr).toContain('--port expects a whole number')
    const account = cli(['--account', 'acct_x:sk_x:pk_x:extra'])
    expect(await account.exited).toBe(1)
    expect(account.output().stderr).toContain(
      '--account expects ID:PRIVATE_KEY or ID:PRIVATE_KEY:PUBLIC_KEY',
    )
  })
})
