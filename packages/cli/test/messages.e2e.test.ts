import { type Sandbox, startSandbox } from '@chargekit/sandbox'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { runCli, stopRunningClis } from './cli-process'

// The real bin in its own process: what a person reads on stderr, and the exit code.

let sandbox: Sandbox
let env: Record<string, string>

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, deliverEvents: false })
  env = { CHARGEKIT_BASE_URL: sandbox.url }
})
afterAll(() => sandbox.close())
afterEach(stopRunningClis)

/** Words of the client's API that a command line user never typed. */
const libraryWords = /createClient|baseUrl|accountId|privateKey|timeoutMs/

describe('did you mean', () => {
  it('suggests the event type another payment API would call it, and says the help hint once', async () => {
    const run = await runCli(['trigger', 'payment.succeeded'], env)
    expect(run).toMatchObject({ code: 2, stdout: '' })
    expect(run.stderr).toBe(
      'chargekit: unknown event type "payment.succeeded" (did you mean payment.success?). Run chargekit trigger --help for the event types.\n',
    )
    const stripeLike = await runCli(['events', 'list', '--type', 'payment_intent.failed'], env)
    expect(stripeLike.code).toBe(2)
    expect(stripeLike.stderr).toContain(
      '--type expects an event type such as payment.success; got "payment_intent.failed" (did you mean payment.error?)',
    )
  })

  it('lists the events of the object named when no type is close', async () => {
    const run = await runCli(['trigger', 'charge.succeeded'], env)
    expect(run.code).toBe(2)
    expect(run.stderr).toBe(
      'chargekit: unknown event type "charge.succeeded" (the charge events are charge.created, charge.confirmed, charge.error). Run chargekit trigger --help for the event types.\n',
    )
  })

  it('suggests the flag meant, and where a command flag given first belongs', async () => {
    const [misspelt, first, top] = await Promise.all([
      runCli(['trigger', 'payment.success', '--evnts-url', 'https://shop.example/hooks'], env),
      runCli(['--json', 'events', 'list'], env),
      runCli(['--verison'], env),
    ])
    expect(misspelt).toMatchObject({ code: 2, stdout: '' })
    expect(misspelt.stderr).toBe(
      'chargekit: unknown flag --evnts-url (did you mean --events-url?). Run chargekit trigger --help for usage.\n',
    )
    expect(first.stderr).toBe(
      "chargekit: unknown flag --json: a command's flags go after it, as in chargekit events list --json. Run chargekit --help for usage.\n",
    )
    expect(top.stderr).toContain('unknown flag --verison (did you mean --version?)')
  })
})

describe('errors in the command line’s words', () => {
  it('names the flag or the variable a bad credential came from', async () => {
    const [flag, variable] = await Promise.all([
      runCli(['events', 'list', '--private-key', 'short'], env),
      runCli(['events', 'list'], { ...env, CHARGEKIT_ACCOUNT_ID: 'acct with spaces' }),
    ])
    expect(flag.code).toBe(2)
    expect(flag.stderr).toMatch(/^chargekit: --private-key is too short: expected at least 8/)
    expect(variable.code).toBe(2)
    expect(variable.stderr).toMatch(/^chargekit: CHARGEKIT_ACCOUNT_ID must be a non-empty string/)
    for (const run of [flag, variable]) expect(run.stderr).not.toMatch(libraryWords)
  })

  it('refused credentials: which request, and which flags and variables to check', async () => {
    const run = await runCli(['events', 'list', '--private-key', 'sk_not_this_account'], env)
    expect(run.code).toBe(1)
    const [said, next, ...rest] = run.stderr.trimEnd().split('\n')
    expect(said).toMatch(
      /^chargekit: GET \/v2\/events was refused with 401 05\.03\.0002 Merchant Authorization Error \(request id req_\w+\)\.$/,
    )
    expect(next).toBe(
      'Check --account-id and --private-key (or CHARGEKIT_ACCOUNT_ID and CHARGEKIT_PRIVATE_KEY): they must be an account of the service at --base-url.',
    )
    expect(rest).toEqual([])
    expect(run.stderr).not.toMatch(libraryWords)
    expect(run.stderr).not.toContain('sk_not_this_account')
  })

  it('no service at the address: the network’s reason, and how to start or point at one', async () => {
    // A port nothing listens on: the sandbox's own, once it is closed.
    const closed = await startSandbox({ port: 0, deliverEvents: false })
    const url = closed.url
    await closed.close()
    const run = await runCli(['events', 'get', 'ev_1'], { CHARGEKIT_BASE_URL: url })
    expect(run.code).toBe(1)
    const [said, next] = run.stderr.trimEnd().split('\n')
    expect(said).toMatch(/^chargekit: GET \/v2\/events\/ev_1 got no answer: .*ECONNREFUSED/)
    expect(next).toBe(
      'Is the service running? For the local sandbox: npx @chargekit/sandbox; for another address, set --base-url (or CHARGEKIT_BASE_URL).',
    )
    expect(run.stderr).not.toMatch(libraryWords)
  })
})
