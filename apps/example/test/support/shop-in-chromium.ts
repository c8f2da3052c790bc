import type { Browser, Page } from 'playwright-core'
import { launchChromium, newWindow } from '../../../../scripts/launch-chromium'
import { type Stack, type StackOptions, startStack } from './stack.js'

export interface ShopInChromium {
  stack: Stack
  browser: Browser
  /** A desktop-sized page in a window of its own; more pages of its profile: `page.context()`. */
  newPage(): Promise<Page>
  close(): Promise<void>
}

/**
 * The stack and Chromium, started side by side. The order page's checkout script, bundled on its
 * first request, is asked for while Chromium starts, so no test waits for the bundling.
 */
export async function openShopInChromium(options: StackOptions = {}): Promise<ShopInChromium> {
  const [stack, browser] = await Promise.allSettled([
    startStack(options).then(async (started) => {
      // Only to warm it up: a script that fails to build fails the first page that loads it.
      await fetch(`${started.shop.url}/assets/checkout.js`).catch(() => undefined)
      return started
    }),
    launchChromium(),
  ])
  if (stack.status === 'rejected' || browser.status === 'rejected') {
    if (stack.status === 'fulfilled') await stack.value.close()
    if (browser.status === 'fulfilled') await browser.value.close()
    throw stack.status === 'rejected' ? stack.reason : (browser as PromiseRejectedResult).reason
  }
  return {
    stack: stack.value,
    browser: browser.value,
    newPage: () => newWindow(browser.value, { viewport: { width: 1100, height: 900 } }),
    async close() {
      await browser.value.close()
      await stack.value.close()
    },
  }
}
