import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core'
import { findChromium } from './chromium-path.mjs'

// Without the background-networking flags Chromium keeps dialling Google's hosts, which this
// machine's closed network refuses; the rest keep a fresh headless profile quiet and fast.
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/**
 * Starts the headless Chromium every browser test uses. A missing browser fails the test with
 * the command that installs it, rather than skipping: a skipped browser test proves nothing.
 */
export function launchChromium(): Promise<Browser> {
  const executablePath = findChromium()
  if (executablePath === undefined) {
    throw new Error(
      process.env.CHROMIUM_PATH
        ? `CHROMIUM_PATH is set to ${process.env.CHROMIUM_PATH}, which does not exist.`
        : 'No Chromium found: set CHROMIUM_PATH to a Chromium or Chrome executable, or on Debian run `node scripts/setup.mjs --browser` (`npm run test:all` does this).',
    )
  }
  return chromium.launch({ executablePath, args: chromiumArgs })
}

/**
 * A page in a browser profile (context) of its own, and so in a window of its own. Chromium runs
 * the animation frames of one page per window and hardly any of the others', and every click
 * waits for two frames (Playwright's check that the element stands still): pages used at the
 * same time each need a window, or their clicks take a second each.
 */
export async function newWindow(browser: Browser, options?: BrowserContextOptions): Promise<Page> {
  const profile = await browser.newContext(options)
  return profile.newPage()
}

/**
 * Saves a full-page screenshot to `path` for a person to look at, only when the run sets
 * CHARGEKIT_SCREENSHOTS=1: a screenshot asserts nothing and costs up to a second of CPU.
 */
export async function saveScreenshot(page: Page, path: string): Promise<void> {
  if (!process.env.CHARGEKIT_SCREENSHOTS) return
  mkdirSync(dirname(path), { recursive: true })
  await page.screenshot({ path, fullPage: true })
}
