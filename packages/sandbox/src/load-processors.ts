import { existsSync, readFileSync } from 'node:fs'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { SandboxError } from './errors'
import type { Processor } from './processors/processor'
import { createProcessorRegistry } from './processors/processor-registry'

/**
 * `--processor <module>`: imports each module, a path (`./voucher.js`, `/abs/voucher.mjs`) or a
 * package name resolved from `cwd` as an import there would (`@acme/voucher-processor`), and returns the
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

/**
 * The file `import(name)` would load from a module in `cwd`: the package in the nearest
 * `node_modules` from there upwards, its `exports` read with the `import` condition (so an
 * ES-module-only package loads, and a dual one loads as the same ES module the sandbox is).
 */
function resolvePackage(specifier: string, cwd: string): string {
  const parts = specifier.split('/')
  const nameLength = specifier.startsWith('@') ? 2 : 1
  const name = parts.slice(0, nameLength).join('/')
  const subpath = ['.', ...parts.slice(nameLength)].join('/')
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const root = join(dir, 'node_modules', name)
    const manifest = join(root, 'package.json')
    if (existsSync(manifest)) {
      const entry = packageEntry(JSON.parse(readFileSync(manifest, 'utf8')), subpath)
      if (entry === undefined) {
        throw new SandboxError(
          `--processor ${specifier}: package "${name}" (${root}) exports no "${subpath}" for import`,
        )
      }
      return join(root, entry)
    }
    if (dirname(dir) === dir) break
  }
  throw new SandboxError(
    `--processor ${specifier}: no package "${name}" in node_modules from ${resolve(cwd)} upwards; install it, or give a path such as ./${name.replace(/^@[^/]+\//, '')}.js`,
  )
}

type ExportsField = string | null | readonly ExportsField[] | { [key: string]: ExportsField }

/** A package's file for `subpath` (`.`, `./processor`), as an ES module import resolves it. */
function packageEntry(
  manifest: { exports?: ExportsField; main?: string },
  subpath: string,
): string | undefined {
  const { exports } = manifest
  if (exports === undefined) return subpath === '.' ? (manifest.main ?? 'index.js') : subpath
  const isSubpathMap =
    typeof exports === 'object' &&
    exports !== null &&
    !Array.isArray(exports) &&
    Object.keys(exports).some((key) => key.startsWith('.'))
  if (!isSubpathMap) return subpath === '.' ? importTarget(exports) : undefined
  return importTarget((exports as Record<string, ExportsField>)[subpath] ?? null)
}

/** The target for the `import`, `node` or `default` condition, the first that matches. */
function importTarget(target: ExportsField): string | undefined {
  if (typeof target === 'string') return target
  if (target === null) return undefined
  if (Array.isArray(target)) {
    for (const each of target) {
      const found = importTarget(each)
      if (found !== undefined) return found
    }
    return undefined
  }
  for (const [condition, value] of Object.entries(target)) {
    if (condition === 'import' || condition === 'node' || condition === 'default') {
      const found = importTarget(value)
      if (found !== undefined) return found
    }
  }
  return undefined
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
