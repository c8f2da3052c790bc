import { defineConfig, type Options } from 'tsup'

/** The build every published package shares: ESM + CJS + declarations for both (DESIGN §3). */
export function defineChargekitBuild(options: Options = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'es2022',
    ...options,
  })
}
