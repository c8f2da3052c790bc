// @chargekit/client/node: what only Node (and runtimes with its `node:http`) can run, kept out
// of the main entry so that entry stays web-standard for Deno, Workers and browsers.
export type { HttpAnswer, HttpExchange, HttpRequest, HttpTransport } from './http-transport'
export type { NodeTransportOptions } from './node-transport'
export { nodeTransport } from './node-transport'
