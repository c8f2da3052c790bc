import { readFileSync } from 'node:fs'
import * as client from '@chargekit/client'
import * as schemas from '@chargekit/schemas'
import checks from './checks.cjs'

const fixtures = JSON.parse(readFileSync(new URL('./fixtures.json', import.meta.url), 'utf8'))
console.log(JSON.stringify(await checks.runChecks({ schemas, client }, fixtures)))
