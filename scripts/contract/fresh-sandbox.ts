// The contract as a new user meets it: a fresh `chargekit-sandbox` (the built CLI, as npm
// installs it) answers GET /openapi.json with no credentials, and its /docs page renders the
// API reference in Chromium from the sandbox alone, nothing loaded from elsewhere.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { chargesConfirm } from '@chargekit/schemas/operations'
import { freePort } from '../free-port'
import { launchChromium } from '../launch-chromium'

const cli = fileURLToPath(new URL('../../packages/sandbox/dist/cli.js', import.meta.url))
const screenshot = new URL('../../test-artifacts/contract/docs.png', import.meta.url)

/** Starts the built CLI on a free port and waits until it is ready (`/readyz`). */
async function startCli(): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort()
  const child = spawn(process.execPath, [cli, '--port', String(port)], { stdio: 'ignore' })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`chargekit-sandbox exited with ${child.exitCode}`)
    const ready = await fetch(`${url}/readyz`).then(
      (answer) => answer.ok,
      () => false,
    )
    if (ready) return { url, process: child }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  child.kill()
  throw new Error('chargekit-sandbox was not ready within 30 s')
}

/** `curl /openapi.json` on a fresh CLI sandbox, then its reference page in Chromium. */
export async function checkFreshSandbox(): Promise<string> {
  const sandbox = await startCli()
  const browser = await launchChromium()
  try {
    const answer = await fetch(`${sandbox.url}/openapi.json`)
    const document = (await answer.json()) as { openapi?: string; servers?: { url: string }[] }
    if (answer.status !== 200 || document.openapi !== '3.1.0') {
      throw new Error(
        `GET /openapi.json answered ${answer.status} ${JSON.stringify(document).slice(0, 200)}`,
      )
    }
    if (document.servers?.[0]?.url !== sandbox.url) {
      throw new Error(`the document names ${document.servers?.[0]?.url}, not ${sandbox.url}`)
    }
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const elsewhere: string[] = []
    const problems: string[] = []
    page.on('request', (request) => {
      const url = request.url()
      if (!url.startsWith(sandbox.url) && !url.startsWith(`blob:${sandbox.url}`)) {
        elsewhere.push(url)
      }
    })
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text())
    })
    page.on('pageerror', (error) => problems.push(error.message))
    await page.goto(`${sandbox.url}/docs`)
    await page
      .getByRole('heading', { name: /Payment lifecycle service/ })
      .waitFor({ timeout: 60_000 })
    await page.getByRole('menuitem', { name: 'Charges' }).click()
    await page.getByRole('menuitem', { name: /Create a charge/ }).click()
    await page.getByText(chargesConfirm.path).first().waitFor({ state: 'attached' })
    mkdirSync(new URL('.', screenshot), { recursive: true })
    await page.screenshot({ path: fileURLToPath(screenshot) })
    if (elsewhere.length > 0)
      throw new Error(`/docs loaded from elsewhere: ${elsewhere.join(', ')}`)
    if (problems.length > 0) throw new Error(`/docs logged errors: ${problems.join('; ')}`)
    return `GET /openapi.json 200 (OpenAPI 3.1.0, server ${sandbox.url}); /docs rendered offline, screenshot ${fileURLToPath(screenshot)}`
  } finally {
    await browser.close()
    sandbox.process.kill()
  }
}
