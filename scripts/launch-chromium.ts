import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'

/** Debian's Chromium: browsers cannot be downloaded here (DESIGN §2), `setup.mjs` installs it. */
export const chromiumPath = '/usr/bin/chromium'

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
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium is missing at ${chromiumPath}. Install it with \`node scripts/setup.mjs --browser\` (\`npm run test:all\` does this).`,
    )
  }
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
}
