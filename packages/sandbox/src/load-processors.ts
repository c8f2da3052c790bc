import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { isAbsolute, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { SandboxError } from './errors'
import type { Processor } from './processors/processor'
import { createProcessorRegistry } from './processors/processor-registry'

/**
 * `--processor <module>`: imports each module, a path (`./voucher.js`, `/abs/voucher.mjs`) or a
 * package name resolved from `cwd` as Node would (`@acme/voucher-processor`), and returns the
 * processors it exports: its default export (a processor or an array of them) or a named export
 * `processors`. Each module's processors are checked as `startSandbox` would, so a mistake names
 * its module.
 */
export async function loadProcessors(
  specifiers: readonly string[],
  cwd: string,
): Promise<Processor[]> {
  const loaded: Processor[] = []
  for (const specifier of specifiers) {
    const processors = processorsOf(specifier, await importModule(specifier, cwd))
    try {
      createProcessorRegistry(processors)
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error
      throw new SandboxError(`--processor ${specifier}: ${error.message}`)
    }
    loaded.push(...processors)
  }
  return loaded
}

function isPath(specifier: string): boolean {
  return specifier.startsWith('.') || isAbsolute(specifier)
}

async function importModule(specifier: string, cwd: string): Promise<Record<string, unknown>> {
  const file = isPath(specifier) ? resolve(cwd, specifier) : resolvePackage(specifier, cwd)
  if (!existsSync(file)) {
    throw new SandboxError(`--processor ${specifier}: no file at ${file}`)
  }
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>
  } catch (error) {
    throw new SandboxError(
      `--processor ${specifier}: importing ${file} failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    )
  }
}

function resolvePackage(name: string, cwd: string): string {
  try {
    // Resolved as a module in `cwd` would resolve it: node_modules folders from there upwards.
    return createRequire(join(cwd, 'noop.js')).resolve(name)
  } catch (error) {
    const code = (error as { code?: string }).code
    const why =
      code === 'MODULE_NOT_FOUND'
        ? `no package "${name}" in node_modules from ${cwd} upwards`
        : `package "${name}" could not be resolved from ${cwd} (${(error as Error).message.split('\n')[0]})`
    throw new SandboxError(
      `--processor ${name}: ${why}; install it, or give a path such as ./${name.replace(/^@[^/]+\//, '')}.js`,
    )
  }
}

/** The module's processors: `export default` one or an array, or `export const processors`. */
function processorsOf(specifier: string, module: Record<string, unknown>): Processor[] {
  let exported = module.processors ?? module.default
  // A CommonJS module compiled from ESM arrives as { default: { default | processors } }.
  if (isPlainExports(exported)) {
    const inner = exported as Record<string, unknown>
    exported = inner.processors ?? inner.default
  }
  const processors = Array.isArray(exported) ? exported : [exported].filter(looksLikeProcessor)
  if (processors.length === 0) {
    const names = Object.keys(module).join(', ') || 'nothing'
    throw new SandboxError(
      `--processor ${specifier}: the module exports no processor (it exports ${names}): export default a processor or an array of them, or export const processors = [...]`,
    )
  }
  return processors as Processor[]
}

/**
 * Whether a default export is meant as a processor (the registry then says what is wrong with
 * it), rather than some other module's default export (zod's `z`).
 */
function looksLikeProcessor(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    ('name' in value || 'chargeTypes' in value || 'authorize' in value)
  )
}

/** An object of exports rather than a processor: it has no `authorize` of its own. */
function isPlainExports(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !('authorize' in value) &&
    ('default' in value || 'processors' in value)
  )
}
