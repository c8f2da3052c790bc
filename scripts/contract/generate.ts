// pnpm contract:generate: rewrites the files generated from the operation table, the OpenAPI
// document and the endpoint list in docs/. (pnpm contract:record records the document's
// examples from a fresh sandbox first.)
import { writeFileSync } from 'node:fs'
import {
  openApiFile,
  renderOpenApiFile,
  renderResourcesPage,
  resourcesPage,
} from './contract-files'

writeFileSync(openApiFile, renderOpenApiFile())
writeFileSync(resourcesPage, renderResourcesPage())
console.log(`Wrote ${openApiFile.pathname} and the endpoint list of ${resourcesPage.pathname}`)
