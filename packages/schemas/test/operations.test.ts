import { describe, expect, it } from 'vitest'
import { operationSchemas } from '../src/operation-schemas'
import * as operations from '../src/operations'
import {
  expandPath,
  type Operation,
  type OperationRoute,
  operationTable,
  pathParameters,
  pathPattern,
  takesIdempotencyKey,
} from '../src/operations'

const table: readonly Operation[] = operationTable

describe('the operation table', () => {
  it('lists every route it exports once, and nothing else', () => {
    const routes = Object.values(operations as Record<string, unknown>).filter(
      (value): value is OperationRoute =>
        typeof value === 'object' && value !== null && 'path' in value,
    )
    expect(table.map((operation) => operation.id).toSorted()).toEqual(
      routes.map((route) => route.id).toSorted(),
    )
    expect(new Set(table.map((operation) => operation.id)).size).toBe(table.length)
    const routeKeys = table.map((operation) => `${operation.method} ${operation.path}`)
    expect(new Set(routeKeys).size).toBe(table.length)
  })

  it('names each path parameter with the id prefix it takes', () => {
    for (const operation of table) {
      expect(Object.keys(operation.params ?? {}), operation.id).toEqual(
        pathParameters(operation.path),
      )
      for (const prefix of Object.values(operation.params ?? {})) {
        expect(prefix, operation.id).toMatch(/^[a-z]{2}_$/)
      }
    }
  })

  it('names only schemas it has, an object schema for each query', () => {
    for (const operation of table) {
      for (const name of [operation.body, operation.query]) {
        if (name !== undefined) expect(operationSchemas[name], operation.id).toBeDefined()
      }
      if (operation.query !== undefined) {
        expect(operationSchemas[operation.query].def.type, operation.id).toBe('object')
      }
    }
  })

  it('puts a fixed path before a parameter in the same place, so the router sees it first', () => {
    table.forEach((operation, index) => {
      for (const later of table.slice(index + 1)) {
        if (later.method !== operation.method) continue
        expect(
          pathPattern(operation.path).test(later.path),
          `${operation.id} hides ${later.id}`,
        ).toBe(false)
      }
    })
  })

  it('takes Idempotency-Key on every write that credentials authorize', () => {
    const keyed = table.filter(takesIdempotencyKey).map((operation) => operation.id)
    expect(keyed).toContain('charges.create')
    expect(keyed).toContain('instruments.invalidate')
    expect(keyed).not.toContain('charges.retrieve')
    expect(keyed).not.toContain('instruments.completeChallenge')
  })

  it('opens exactly the checkout to the public key', () => {
    expect(table.filter((operation) => operation.keys === 'public').map((op) => op.id)).toEqual([
      'charges.create',
      'charges.types',
      'charges.retrieve',
      'instruments.create',
      'instruments.retrieve',
    ])
  })

  it('fills and matches paths, one segment per parameter', () => {
    const path = expandPath(operations.testHelpersDispute.path, { paymentId: 'pa_1/../x' })
    expect(path).toBe('/v2/test/payments/pa_1%2F..%2Fx/dispute')
    expect(pathPattern(operations.testHelpersDispute.path).test(path)).toBe(true)
    expect(pathPattern(operations.chargesRetrieve.path).test('/v2/charges/a/b')).toBe(false)
  })
})
