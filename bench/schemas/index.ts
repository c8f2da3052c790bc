// Validating one full event (every object filled) against JSON.parse of the same text alone,
// in the same run. Target: parse + validate takes at most 2x the time of parse alone, i.e. the
// parse+validate rate is at least 0.5x the parse-only rate.
import { parseEvent } from '@chargekit/schemas'
import { fullEvent } from '../../packages/schemas/test/fixtures'
import { measureRate } from '../support/measure'
import { reportFigure, reportRatio } from '../support/report'

const text = JSON.stringify(fullEvent)
// Each measured operation runs a synchronous batch, so the async harness adds no per-call cost.
const batch = 200
let sink = 0

function parseOnly() {
  for (let i = 0; i < batch; i++) sink += (JSON.parse(text) as { id: string }).id.length
  return Promise.resolve()
}

function parseAndValidate() {
  for (let i = 0; i < batch; i++) sink += parseEvent(JSON.parse(text)).id.length
  return Promise.resolve()
}

// Interleave the two so machine noise hits both alike; keep each side's best round.
const rounds = 3
let parseRate = 0
let validateRate = 0
for (let round = 0; round < rounds; round++) {
  parseRate = Math.max(
    parseRate,
    (await measureRate(parseOnly, { durationMs: 2_000 })).perSecond * batch,
  )
  validateRate = Math.max(
    validateRate,
    (await measureRate(parseAndValidate, { durationMs: 2_000 })).perSecond * batch,
  )
}

reportFigure('schemas event size', text.length, 'bytes')
reportFigure('schemas JSON.parse', parseRate, 'events/s')
reportFigure('schemas JSON.parse + parseEvent', validateRate, 'events/s')
reportRatio('schemas parse+validate rate vs parse-only rate', validateRate, parseRate, {
  atLeast: 0.5,
})
if (sink === 0) throw new Error('unreachable: keeps the parsed values observable')
