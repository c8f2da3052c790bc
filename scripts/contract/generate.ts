// pnpm contract:generate: rewrites the files generated from the operation table, the OpenAPI
// document and the endpoint list in docs/, and has Biome format them with the recorded examples
// (pnpm contract:record records those from a fresh sandbox first).
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import {
  examplesFile,
  openApiFile,
  renderOpenApiFile,
  renderResourcesPage,
  resourcesPage,
} from './contract-files'

writeFileSync(openApiFile, renderOpenApiFile())
writeFileSync(resourcesPage, renderResourcesPage())
const written = [openApiFile, resourcesPage, examplesFile].map((file) => fileURLToPath(file))
execFileSync(fileURLToPath(new URL('../../node_modules/.bin/biome', import.meta.url)), [
  'format',
  '--write',
  ...written,
])
console.log(`Wrote and formatted ${written.join(', ')}`)
