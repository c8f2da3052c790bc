// Where the browser tests find Chromium: CHROMIUM_PATH when set, otherwise the first browser
// installed in a usual place. Shared by setup.mjs (which installs Debian's when there is none)
// and launch-chromium.ts.
import { existsSync } from 'node:fs'

// The headless shell first: Chromium's old headless mode, built without the browser's windowing,
// runs the browser tests in about half the time of the full browser's headless mode.
const usualPlaces = [
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
]

/** The Chromium to use, or undefined when there is none (CHROMIUM_PATH must exist when set). */
export function findChromium() {
  const configured = process.env.CHROMIUM_PATH
  if (configured) return existsSync(configured) ? configured : undefined
  return usualPlaces.find((place) => existsSync(place))
}
