import { readFileSync } from 'node:fs'
import {
  disputeStatusSchema,
  eventTypeList,
  instrumentStatusSchema,
  transactionStatusSchema,
} from '@chargekit/schemas'
import { describe, expect, it } from 'vitest'

// The state diagrams of docs/service/lifecycle.md, held to the sandbox's own status values and
// event types: a diagram naming a state no object can be in, or an event the sandbox does not
// emit, or leaving one out, fails here.

const lifecycleDoc = readFileSync(
  new URL('../../../docs/service/lifecycle.md', import.meta.url),
  'utf8',
)

/** Each `### Object` heading of the state diagrams section and its Mermaid block. */
function diagrams(): Map<string, string> {
  const section = lifecycleDoc.split('## State diagrams')[1]?.split('\n## ')[0] ?? ''
  const found = new Map<string, string>()
  for (const match of section.matchAll(/### (\w+)\n+```mermaid\n([\s\S]*?)```/g)) {
    found.set((match[1] ?? '').toLowerCase(), match[2] ?? '')
  }
  return found
}

/** The states a diagram's transitions name, pseudo-states and choices left out. */
function statesOf(diagram: string): Set<string> {
  const states = new Set<string>()
  for (const match of diagram.matchAll(/^\s*(\S+) --> (\S+)/gm)) {
    for (const state of [match[1], match[2]]) {
      if (state !== undefined && state !== '[*]' && state !== 'decision') states.add(state)
    }
  }
  return states
}

function eventsOf(diagram: string): Set<string> {
  return new Set(diagram.match(/\b[a-z]+\.[a-z]+\b/g) ?? [])
}

describe('the lifecycle state diagrams', () => {
  const byObject = diagrams()

  it('draw every object, in the states its status field takes', () => {
    expect([...byObject.keys()]).toEqual([
      'charge',
      'instrument',
      'payment',
      'refund',
      'reversal',
      'dispute',
    ])
    const statusValues: Record<string, readonly string[]> = {
      charge: ['unconfirmed', 'confirmed', 'failed'],
      instrument: instrumentStatusSchema.options,
      payment: transactionStatusSchema.options,
      refund: transactionStatusSchema.options,
      reversal: transactionStatusSchema.options,
      dispute: disputeStatusSchema.options,
    }
    for (const [object, diagram] of byObject) {
      expect([...statesOf(diagram)].sort(), object).toEqual(
        [...(statusValues[object] ?? [])].sort(),
      )
    }
  })

  it('name each of the 22 event types, each in its own object’s diagram', () => {
    const named = [...byObject].flatMap(([object, diagram]) =>
      [...eventsOf(diagram)].map((type) => [object, type] as const),
    )
    for (const [object, type] of named) expect(type.split('.')[0], type).toBe(object)
    expect(named.map(([, type]) => type).sort()).toEqual([...eventTypeList].sort())
  })
})
