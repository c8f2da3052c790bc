// A named import of one JSON field: bundlers (esbuild/tsup, Vite, webpack) inline just this
// string at build time, so no runtime file read happens and no bundler has to ship package.json.
import { version } from '../package.json'

/** The version of `@chargekit/client`, sent in the `User-Agent` header. */
export const VERSION: string = version
