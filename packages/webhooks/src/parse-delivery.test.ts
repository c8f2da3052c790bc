import { deliveryUrl } from '@chargekit/schemas'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { WebhooksError } from './errors'
import { parseDelivery } from './parse-delivery'

const delivery = { id: 'ev_123', type: 'payment.success' }
const json = JSON.stringify(delivery)

function parse(body: string, contentType?: string, url = '/webhooks') {
  return parseDelivery({ url, contentType, body })
}

function failure(run: () => unknown): WebhooksError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(WebhooksError)
    return error as WebhooksError
  }
  throw new Error('expected parseDelivery to throw')
}

describe('parseDelivery', () => {
  it('reads a JSON body, with or without charset or a +json type', () => {
    expect(parse(json, 'application/json')).toEqual(delivery)
    expect(parse(json, 'application/json; charset=utf-8')).toEqual(delivery)
    expect(parse(json, 'application/vnd.events+json')).toEqual(delivery)
  })

  it('keeps a JSON body that is the compact form as `compact`, and only then', () => {
    const compact = {
      ...delivery,
      charge: { id: 'ch_1', type: 'card_onetime', amount: 12.5, currency: 'EUR', metadata: {} },
      instrument: { id: 'in_1', failure_description: null },
      payment: { id: 'pa_1' },
    }
    expect(parse(JSON.stringify(compact), 'application/json')).toEqual({ ...delivery, compact })
    // A body that only names the event, or whose compact fields are malformed, still names it.
    expect(parse(json, 'application/json')).not.toHaveProperty('compact')
    const broken = { ...compact, charge: { ...compact.charge, amount: 'twelve' } }
    expect(parse(JSON.stringify(broken), 'application/json')).toEqual(delivery)
  })

  it('reads a form-encoded body', () => {
    expect(parse('id=ev_123&type=payment.success', 'application/x-www-form-urlencoded')).toEqual(
      delivery,
    )
  })

  it('sniffs JSON or form when the content type is missing or text/plain', () => {
    expect(parse(json)).toEqual(delivery)
    expect(parse(json, 'text/plain')).toEqual(delivery)
    expect(parse('id=ev_123&type=payment.success')).toEqual(delivery)
  })

  it('reads the query parameters event/event_type and id/type', () => {
    expect(parse('', undefined, '/webhooks?event=ev_123&event_type=payment.success')).toEqual(
      delivery,
    )
    expect(parse('', undefined, '/webhooks?id=ev_123&type=payment.success')).toEqual(delivery)
    expect(
      parse('', undefined, 'https://shop.example/hooks?type=payment.success&id=ev_123'),
    ).toEqual(delivery)
    expect(
      parse('', undefined, '/webhooks?event=ev_123&event_type=payment.success#section'),
    ).toEqual(delivery)
  })

  it('prefers the body, then event/event_type, then id/type', () => {
    const url = '/w?event=ev_q1&event_type=charge.created&id=ev_q2&type=charge.confirmed'
    expect(parse(json, 'application/json', url)).toEqual(delivery)
    expect(parse('', undefined, url)).toEqual({ id: 'ev_q1', type: 'charge.created' })
    expect(parse('', undefined, '/w?id=ev_q2&type=charge.confirmed&event_type=')).toEqual({
      id: 'ev_q2',
      type: 'charge.confirmed',
    })
  })

  it('falls through a body that names no event, as the service also sends the query', () => {
    expect(parse('{}', 'application/json', '/w?event=ev_1&event_type=refund.success')).toEqual({
      id: 'ev_1',
      type: 'refund.success',
    })
  })

  it('falls back to the query when the body has a content type it does not read', () => {
    const query = '/w?event=ev_123&event_type=payment.success'
    expect(parse('<event id="ev_9"/>', 'application/xml', query)).toEqual(delivery)
    expect(
      parse('--x', 'multipart/form-data; boundary=x', '/w?id=ev_123&type=payment.success'),
    ).toEqual(delivery)
  })

  it('answers 400 naming what was expected when nothing names an event', () => {
    const error = failure(() => parse(''))
    expect(error.code).toBe('invalid_delivery')
    expect(error.status).toBe(400)
    expect(error.message).toMatch(/names no event/)
    expect(error.message).toContain('JSON body {"id"')
    expect(error.message).toContain('event_type')
  })

  it('rejects malformed JSON, non-object JSON and unsupported content types', () => {
    expect(failure(() => parse('{"id":', 'application/json')).message).toMatch(/not valid JSON/)
    expect(failure(() => parse('[1]', 'application/json')).message).toMatch(/must be an object/)
    expect(failure(() => parse('null', 'application/json')).message).toMatch(/must be an object/)
    const multipart = failure(() => parse('--x', 'multipart/form-data; boundary=x'))
    expect(multipart.message).toMatch(/Unsupported content-type "multipart\/form-data"/)
    expect(multipart.message).toMatch(/no event\/event_type or id\/type query parameters/)
  })

  it('names the bad field and its source', () => {
    expect(
      failure(() => parse('{"id":12,"type":"payment.success"}', 'application/json')).message,
    ).toMatch(/JSON field "id" must be an event id: .* got a number/)
    expect(failure(() => parse('{"id":"ev_1"}', 'application/json')).message).toMatch(
      /JSON field "type" must be an event type .* got nothing/,
    )
    expect(
      failure(() => parse('id=ev_1&type=not%20a%20type', 'application/x-www-form-urlencoded'))
        .message,
    ).toMatch(/form field "type" .* got "not a type"/)
    for (const id of ['..', '../charges', 'ev 1', '_ev']) {
      const query = new URLSearchParams({ event: id, event_type: 'charge.created' })
      expect(failure(() => parse('', undefined, `/w?${query}`)).message).toMatch(
        /query parameter "id" must be an event id/,
      )
    }
  })

  it('finds the same delivery in every encoding (property)', () => {
    const id = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,254}$/)
    const type = fc
      .array(fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/), { minLength: 1, maxLength: 4 })
      .map((parts) => parts.join('.'))
    fc.assert(
      fc.property(id, type, (id, type) => {
        const expected = { id, type }
        const query = new URLSearchParams({ event: id, event_type: type })
        expect(parse(JSON.stringify({ id, type }), 'application/json')).toEqual(expected)
        expect(
          parse(new URLSearchParams({ id, type }).toString(), 'application/x-www-form-urlencoded'),
        ).toEqual(expected)
        expect(parse('', undefined, `/hooks?${query}`)).toEqual(expected)
        const stale = new URL('https://shop.example/hooks?event=ev_old&event_type=old&shop=1')
        expect(parse('', undefined, deliveryUrl(stale, expected).href)).toEqual(expected)
        expect(parse('', undefined, `/hooks?${new URLSearchParams({ id, type })}`)).toEqual(
          expected,
        )
      }),
    )
  })

  it('fails only with invalid_delivery, whatever the input (property)', () => {
    const contentType = fc.constantFrom(
      undefined,
      'application/json',
      'application/x-www-form-urlencoded',
      'text/plain',
      'image/png',
    )
    fc.assert(
      fc.property(fc.string(), contentType, fc.string(), (body, type, query) => {
        try {
          const result = parse(body, type, `/w?${query}`)
          expect(typeof result.id).toBe('string')
          expect(typeof result.type).toBe('string')
        } catch (error) {
          expect(error).toBeInstanceOf(WebhooksError)
          expect((error as WebhooksError).code).toBe('invalid_delivery')
        }
      }),
    )
  })
})
