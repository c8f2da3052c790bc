import type { Page } from 'playwright-core'

export interface SentRequest {
  method: string
  url: string
  body: string
}

/** Every request the page sends, main frame or script, whatever its origin. */
export function watchRequests(page: Page): SentRequest[] {
  const sent: SentRequest[] = []
  page.on('request', (request) =>
    sent.push({ method: request.method(), url: request.url(), body: request.postData() ?? '' }),
  )
  return sent
}
