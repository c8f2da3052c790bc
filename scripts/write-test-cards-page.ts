// pnpm docs:test-cards: rewrites the table of docs/test-cards.md from the sandbox's test-card
// table, and has Biome format the page.
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { renderTestCardsPage, testCardsPage } from './test-cards-page'

writeFileSync(testCardsPage, renderTestCardsPage())
const written = fileURLToPath(testCardsPage)
execFileSync(fileURLToPath(new URL('../node_modules/.bin/biome', import.meta.url)), [
  'format',
  '--write',
  written,
])
console.log(`Wrote and formatted ${written}`)
