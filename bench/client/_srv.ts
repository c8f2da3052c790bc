import { readFileSync } from 'node:fs'
import { fixedJsonHandler, startBareServer } from '../support/bare-server'
const text = readFileSync('/tmp/pc/event.json', 'utf8')
const s = await startBareServer(fixedJsonHandler(text))
process.send?.(s.url)
