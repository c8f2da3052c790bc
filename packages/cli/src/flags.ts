import { isErrorCode } from '@chargekit/errors'
import { eventTypeList } from '@chargekit/schemas'
import { createSignatureVerifier } from '@chargekit/webhooks'
import * as z from 'zod'

// What a flag's text must look like, and the value a command gets from it. Each message says
// what the flag expects; the command line adds the flag's name and the text it was given.

/** A whole number from `min` to `max`. */
export function wholeNumberFlag(min: number, max: number) {
  return z
    .string()
    .refine((text) => /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max, {
      error: `expects a whole number from ${min} to ${max}`,
    })
    .transform(Number)
}

/** A positive number of seconds, as milliseconds. */
export const secondsFlag = z
  .string()
  .refine((text) => text.trim() !== '' && Number.isFinite(Number(text)) && Number(text) > 0, {
    error: 'expects a number of seconds > 0, such as 10 or 0.5',
  })
  .transform((text) => Number(text) * 1000)

/** An ISO 8601 timestamp with a time zone (`2026-01-31T12:00:00Z`), as the service writes them. */
export const timestampFlag = z
  .string()
  .refine(
    (text) =>
      /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(text) &&
      !Number.isNaN(Date.parse(text)),
    { error: 'expects an ISO 8601 time with a zone, such as 2026-01-31T12:00:00Z' },
  )

/** One of a fixed set of words; a near miss gets a "did you mean". */
export function choiceFlag<const T extends readonly string[]>(choices: T) {
  return z.enum(choices, { error: `expects one of ${choices.join(', ')}` })
}

export const eventTypeFlag = z.enum(eventTypeList, {
  error: 'expects an event type such as payment.success',
})

/** `key=value` pairs of a repeatable flag, as an object. */
export const keyValueFlag = z
  .array(
    z.string().refine((text) => text.indexOf('=') >= 1, {
      error: 'expects key=value, such as order=1042',
    }),
  )
  .transform((texts) =>
    Object.fromEntries(
      texts.map((text) => [text.slice(0, text.indexOf('=')), text.slice(text.indexOf('=') + 1)]),
    ),
  )

export const httpUrlFlag = z.string().refine((text) => /^https?:\/\/[^/]/.test(text), {
  error: 'expects an http(s) URL such as http://localhost:3000/webhooks',
})

export const errorCodeFlag = z.string().refine(isErrorCode, {
  error: 'expects a catalogue code in the form XX.YY.ZZZZ, such as 06.02.0000',
})

/** A signing secret the webhooks package accepts: a malformed `whsec_` one is refused now, not at the first event. */
export const signingSecretFlag = z.string().superRefine((secret, context) => {
  try {
    createSignatureVerifier(secret)
  } catch (error) {
    // The package's message is about its `secret` option: here the flag's name stands for it.
    const message = (error as Error).message.replace(/^secret /, '').replace(/\.$/, '')
    context.addIssue({ code: 'custom', message })
  }
})
