/**
 * The base of every error this package throws: bad arguments to the amount and currency
 * helpers, and (as `SchemaValidationError`) data that does not match a schema.
 */
export class ChargekitSchemasError extends Error {
  override name = 'ChargekitSchemasError'
}
