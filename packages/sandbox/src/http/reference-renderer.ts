import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'

/**
 * Redoc's standalone bundle, which renders the API reference at `/docs` in the browser, with
 * its licence notices in front. Served by the sandbox itself, so the reference works offline and
 * loads nothing from elsewhere.
 *
 * The published build inlines the bundle in place of this module (see the sandbox's
 * `tsup.config.ts`), so the installed package neither depends on Redoc nor reads files. Run
 * from source, it is read from Redoc's package on first use.
 */
export async function loadRendererScript(): Promise<string> {
  const bundle = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js')
  const [script, notices] = await Promise.all([
    readFile(bundle, 'utf8'),
    readFile(`${bundle}.LICENSE.txt`, 'utf8'),
  ])
  // The one thing Redoc would load from elsewhere: the logo beside "API docs by Redocly".
  const offline = script.replace(redoclyLogo, blankImage)
  return `/*! Redoc (MIT), https://github.com/Redocly/redoc. Bundled licences:\n${notices.replaceAll('*/', '* /')}\n*/\n${offline}`
}

const redoclyLogo = 'https://cdn.redoc.ly/redoc/logo-mini.svg'
const blankImage = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E"
