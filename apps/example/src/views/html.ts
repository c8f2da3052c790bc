import { html } from 'hono/html'

/** A rendered (auto-escaped) fragment; interpolated strings are escaped, fragments are not. */
export type Html = ReturnType<typeof html>

export { html }

/** Field name → messages, as @chargekit/schemas' formatZodIssues produces them. */
export type FieldErrors = Readonly<Record<string, readonly string[]>>

export function fieldError(errors: FieldErrors | undefined, field: string): Html | '' {
  const messages = errors?.[field]
  if (!messages?.length) return ''
  return html`<p class="field-error" id="${field}-error">${messages.join(' ')}</p>`
}

/** aria-invalid + aria-describedby for an input whose field has errors. */
export function invalidAttrs(errors: FieldErrors | undefined, field: string): Html | '' {
  return errors?.[field]?.length ? html`aria-invalid="true" aria-describedby="${field}-error"` : ''
}
