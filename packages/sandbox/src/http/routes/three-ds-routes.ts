import type { Context, Hono } from 'hono'
import type { Account } from '../../accounts/accounts'
import { completeChallenge, findChallenge } from '../../lifecycle/complete-challenge'
import type { LifecycleDeps, StepContext } from '../../lifecycle/context'
import type { ChallengeRecord } from '../../storage/records'
import { readBodyText } from '../read-body'
import { requestHeader } from '../request-header'
import { requestLogOf } from '../request-log'
import type { SandboxEnv } from '../sandbox-env'
import { challengePage, messagePage, resultPage } from '../three-ds-page'

/** The challenge form posts two short fields; anything bigger is not from our page. */
const maxFormBytes = 4 * 1024

// The token is in the URL: no referrer may carry it elsewhere, and nothing else may load.
const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
}

/**
 * The customer's 3DS page: no credentials, reachable only with the unguessable token of a
 * pending challenge. GET shows the challenge; POST …/complete applies the choice and sends the
 * customer to the charge's redirect_url (303), or shows the result.
 */
export function threeDsRoutes(
  app: Hono<SandboxEnv>,
  deps: LifecycleDeps,
  accounts: readonly Account[],
  publicUrl: string,
): void {
  const byId = new Map(accounts.map((account) => [account.id, account]))
  const html = (c: Context<SandboxEnv>, body: string, status: 200 | 400 | 404 | 413 = 200) =>
    c.body(body, status, pageHeaders)
  const stepFor = (c: Context<SandboxEnv>, challenge: ChallengeRecord): StepContext | undefined => {
    const account = byId.get(challenge.accountId)
    return account && { deps, account, requestLog: requestLogOf(c) }
  }
  const invalidLink = (c: Context<SandboxEnv>) =>
    html(
      c,
      messagePage(
        'Link not valid',
        'This 3-D Secure link is wrong, or the verification is already finished.',
      ),
      404,
    )

  app.get('/v2/3ds/:id', async (c) => {
    const challenge = await findChallenge(deps, c.req.param('id') ?? '', c.req.query('token') ?? '')
    const step = challenge && stepFor(c, challenge)
    if (challenge === undefined || step === undefined) return invalidLink(c)
    const instrument = await deps.store.getObject(
      step.account.id,
      'instrument',
      challenge.instrumentId,
    )
    const charge =
      instrument?.charge === undefined
        ? undefined
        : await deps.store.getObject(step.account.id, 'charge', instrument.charge.id)
    if (instrument === undefined || charge === undefined) return invalidLink(c)
    return html(c, challengePage(charge, instrument, challenge.token))
  })

  app.post('/v2/3ds/:id/complete', async (c) => {
    const type = requestHeader(c, 'content-type') ?? ''
    if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      return html(c, messagePage('Bad request', 'Submit the verification form.'), 400)
    }
    let text: string
    try {
      text = await readBodyText(c, maxFormBytes)
    } catch {
      return html(c, messagePage('Bad request', 'The form is too large.'), 413)
    }
    const form = new URLSearchParams(text)
    const outcome = form.get('outcome')
    if (outcome !== 'authorize' && outcome !== 'fail') {
      return html(c, messagePage('Bad request', 'Choose Authorize or Fail authentication.'), 400)
    }
    const challenge = await findChallenge(deps, c.req.param('id') ?? '', form.get('token') ?? '')
    const step = challenge && stepFor(c, challenge)
    if (challenge === undefined || step === undefined) return invalidLink(c)
    const { charge, instrument } = await completeChallenge(
      step,
      challenge,
      outcome === 'authorize',
      publicUrl,
    )
    if (charge.redirect_url !== '') return c.redirect(charge.redirect_url, 303)
    return html(c, resultPage(instrument))
  })
}
