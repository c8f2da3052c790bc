import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { generateOptionRules, optionRulesFile } from '../scripts/generate-option-rules'

describe('option rules', () => {
  it('are generated from the options as declared now (pnpm generate:options)', () => {
    expect(generateOptionRules()).toBe(readFileSync(optionRulesFile, 'utf8'))
  })
})
