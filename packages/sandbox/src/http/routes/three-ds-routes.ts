import type { Charge, Instrument } from '@chargekit/schemas'
import type { Context } from 'hono'
import type { Account } from '../../accounts/accounts'
import type { LifecycleDeps, StepContext } from '../../lifecycle/context'
import { answerAsCustomer, findChallenge } from '../../lifecycle/customer-challenges'
import type { ChallengeRecord } from '../../storage/records'
import type { OpenHandlers } from '../operation-routes'
import { readBodyText } from '../read-body'
import { requestHeader } from '../request-header'
import { requestLogOf } from '../request-log'
import type { SandboxEnv } from '../sandbox-env'
import { challengePage, messagePage, resultPage } from '../three-ds-page'

/** The challenge form posts two short fields; anything bigger is not from our page. */
const maxFormBytes = 4 * 1024

// The page carries the challenge's token: no referrer may carry its URL elsewhere, and nothing
// else may load.
const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
}

/**
 * 3-D Secure by navigation, with no credentials: `instrument.redirect.url` is the instrument's
 * redirect page with `?public_key=…` (`instruments.redirect`), where the customer's browser
 * lands. While the instrument waits, it shows the challenge, whose form posts the choice with
 * the challenge's token (`instruments.completeChallenge`); that sends the customer back to the
 * charge's redirect_url with `?instrument={id}` (303), or shows the result when there is none.
 * Once decided, the redirect URL sends the customer straight back, so a reload or the back
 * button does no harm.
 */
export function threeDsHandlers(
  deps: LifecycleDeps,
  accounts: readonly Account[],
  publicUrl: string,
): Pick<OpenHandlers, 'instruments.redirect' | 'instruments.completeChallenge'> {
  const byId = new Map(accounts.map((account) => [account.id, account]))
  const byPublicKey = new Map(accounts.map((account) => [account.publicKey, account]))
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
  const backToShop = (c: Context<SandboxEnv>, charge: Charge, instrument: Instrument) =>
    charge.redirect_url === ''
      ? html(c, resultPage(instrument))
      : c.redirect(returnUrl(charge.redirect_url, instrument.id), 303)

  const redirect = async (c: Context<SandboxEnv>) => {
    const account = byPublicKey.get(c.req.query('public_key') ?? '')
    if (account === undefined) return invalidLink(c)
    const instrument = await deps.store.getObject(account.id, 'instrument', c.req.param('id') ?? '')
    const charge =
      instrument?.charge === undefined
        ? undefined
        : await deps.store.getObject(account.id, 'charge', instrument.charge.id)
    if (instrument === undefined || charge === undefined) return invalidLink(c)
    const challenge = await deps.store.getChallenge(instrument.id)
    if (
      instrument.status === 'pending' &&
      challenge?.accountId === account.id &&
      challenge.action === 'approval_page'
    ) {
      return html(c, challengePage(charge, instrument, challenge.token))
    }
    // Pending without a challenge: the processor is still deciding; the shop's page shows that.
    return backToShop(c, charge, instrument)
  }

  const completeChallenge = async (c: Context<SandboxEnv>) => {
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
    const challenge = await findChallenge(
      deps,
      c.req.param('instrumentId') ?? '',
      form.get('token') ?? '',
    )
    const step = challenge && stepFor(c, challenge)
    if (challenge === undefined || step === undefined) return invalidLink(c)
    const { charge, instrument } = await answerAsCustomer(
      step,
      challenge.instrumentId,
      outcome === 'authorize' ? 'approve' : 'decline',
      { origin: publicUrl, strict: false },
    )
    return backToShop(c, charge, instrument)
  }
  return { 'instruments.redirect': redirect, 'instruments.completeChallenge': completeChallenge }
}

/** The charge's redirect_url with `instrument={id}` added, so the shop knows what to look up. */
function returnUrl(redirectUrl: string, instrumentId: string): string {
  const url = new URL(redirectUrl)
  url.searchParams.set('instrument', instrumentId)
  return url.href
}
