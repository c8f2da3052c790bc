import { operationTable } from '@chargekit/schemas/operations'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Sandbox } from '../src/index'
import { quietLogger } from '../src/logger'
import { startTestSandbox, type TestSandbox } from '../src/testing/index'

// The contract as a sandbox serves it: the OpenAPI document at both addresses, with no
// credentials and open to every origin, naming the sandbox as its server, and the reference
// page. (The page itself is rendered in Chromium by the contract check, pnpm test:contract:
// Redoc takes seconds of CPU to lay out the whole API.)

let harness: TestSandbox
let sandbox: Sandbox

beforeAll(async () => {
  harness = await startTestSandbox({ logger: quietLogger })
  sandbox = harness.sandbox
})
afterAll(() => harness?.close())

it('serves the OpenAPI document at /openapi.json and /v2/openapi.json without credentials', async () => {
  const [root, versioned] = await Promise.all(
    ['/openapi.json', '/v2/openapi.json'].map((path) =>
      fetch(`${sandbox.url}${path}`, { headers: { origin: 'https://tools.example' } }),
    ),
  )
  for (const answer of [root, versioned]) {
    expect(answer?.status).toBe(200)
    expect(answer?.headers.get('content-type')).toBe('application/json')
    expect(answer?.headers.get('access-control-allow-origin')).toBe('*')
  }
  const document = await root?.json()
  expect(await versioned?.json()).toEqual(document)
  expect(document).toMatchObject({
    openapi: '3.1.0',
    servers: [{ url: sandbox.url }],
    components: { securitySchemes: { privateKey: { scheme: 'basic' } } },
  })
  const operations = Object.values(document.paths as Record<string, Record<string, unknown>>)
    .flatMap((item) => Object.values(item))
    .map((operation) => (operation as { operationId: string }).operationId)
  expect(operations.toSorted()).toEqual(operationTable.map((operation) => operation.id).toSorted())
})

it('serves the reference page and its renderer from the sandbox itself', async () => {
  const page = await fetch(`${sandbox.url}/docs`)
  expect(page.status).toBe(200)
  expect(page.headers.get('content-security-policy')).toContain("default-src 'self'")
  const html = await page.text()
  const script = /<script src="([^"]+)">/.exec(html)?.[1]
  expect(html).toContain('spec-url="/openapi.json"')
  expect(script).toMatch(/^\/docs\//)
  const renderer = await fetch(`${sandbox.url}${script}`)
  expect(renderer.status).toBe(200)
  const code = await renderer.text()
  expect(code).toContain('Redoc')
  // Nothing for the browser to fetch from elsewhere: the logo is the one URL Redoc names.
  expect(code).not.toContain('cdn.redoc.ly')
})
