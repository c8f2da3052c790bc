import type { IntegrationWarningCode } from '../recorded-request'

/**
 * What the production service accepts although a careful client never sends it, and the
 * sandbox with it, each reported as an integration warning with `code`. `inDocument` says how
 * this document states it, where OpenAPI can; the others only this list can tell.
 */
export const leniencies: readonly {
  code: IntegrationWarningCode
  accepts: string
  instead: string
  inDocument?: string
}[] = [
  {
    code: 'trailing_slash',
    accepts: 'A path ending in "/" (`POST /v2/charges/`), on every operation, with no redirect.',
    instead: 'The path without the slash.',
  },
  {
    code: 'form_body',
    accepts: 'Request bodies as `application/x-www-form-urlencoded` fields.',
    instead: 'A JSON body.',
    inDocument: 'Each request body also lists the form content type.',
  },
  {
    code: 'json_with_other_content_type',
    accepts: 'A JSON body sent with another content type (a form type, or none).',
    instead: '`Content-Type: application/json`.',
  },
  {
    code: 'numeric_string',
    accepts: 'Numbers written as strings (`"amount": "20.50"`), where they hold a decimal number.',
    instead: 'A JSON number.',
  },
  {
    code: 'boolean_string',
    accepts: 'Booleans written as strings (`"true"`, `"false"`, `"1"`, `"0"`).',
    instead: 'A JSON boolean.',
  },
  {
    code: 'unknown_field',
    accepts: 'Fields a request does not define: ignored.',
    instead: 'Only the documented fields.',
    inDocument: 'Request schemas do not forbid additional properties.',
  },
  {
    code: 'string_metadata',
    accepts: 'A charge\'s `metadata` as a string (`"42|1001"`), kept and returned exactly as sent.',
    instead: 'An object of key-value pairs.',
    inDocument: 'The charge and its events allow a string `metadata` in their answers.',
  },
  {
    code: 'float_amount',
    accepts:
      'An amount with floating-point noise (`20.799999999999997`), read as the amount within 1e-9 of it that the currency has (`20.8`).',
    instead: "The amount rounded to the currency's minor digits.",
  },
  {
    code: 'null_as_absent',
    accepts: '`null` for an optional field: read as if it were absent.',
    instead: 'Leave the field out.',
  },
]
