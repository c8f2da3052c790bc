/**
 * Opens the 3-D Secure page at an instrument's `redirect.url`, as the customer's browser does,
 * and reads its form: where it posts (absolute) and the challenge's token.
 */
export async function challengeForm(
  redirectUrl: string,
): Promise<{ action: string; token: string }> {
  const page = await fetch(redirectUrl, { redirect: 'manual' })
  const html = await page.text()
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1]
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1]
  if (action === undefined || token === undefined) {
    throw new Error(`No challenge form at ${redirectUrl} (status ${page.status})`)
  }
  return { action: new URL(action, redirectUrl).href, token }
}

/** Posts the customer's choice on the 3-D Secure page, as the page's form would. */
export function postChallenge(
  { action, token }: { action: string; token: string },
  outcome: 'authorize' | 'fail',
): Promise<Response> {
  return fetch(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, outcome }).toString(),
    redirect: 'manual',
  })
}

/** Opens the 3-D Secure page at `redirectUrl` and posts the customer's choice. */
export async function completeChallenge(
  redirectUrl: string,
  outcome: 'authorize' | 'fail',
): Promise<Response> {
  return postChallenge(await challengeForm(redirectUrl), outcome)
}
