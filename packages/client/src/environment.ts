/**
 * Reads an environment variable where the runtime has `process.env` (Node, Bun, Deno's Node
 * compatibility, some edge runtimes); elsewhere (browsers, Workers) there is none and the caller
 * must pass options. Reading `globalThis` keeps this file free of `node:` imports.
 */
export function readEnvironment(name: string): string | undefined {
  const runtime = globalThis as { process?: { env?: Record<string, string | undefined> } }
  try {
    const value = runtime.process?.env?.[name]
    return value === '' ? undefined : value
  } catch {
    // Deno without --allow-env throws on access: behave as if the variable were unset.
    return undefined
  }
}
