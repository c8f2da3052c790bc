// `@chargekit/schemas/openapi`: the OpenAPI 3.1 document of the service, generated from the
// operation table and the zod schemas it names.
export type { OpenApiDocument, OpenApiOptions } from './openapi/document'
export { createOpenApiDocument } from './openapi/document'
