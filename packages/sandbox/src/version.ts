// A named import of one JSON field: tsup inlines the string, so the bin reads no file at run time.
import { version } from '../package.json'

/** The version of `@chargekit/sandbox`, printed by `chargekit-sandbox --version`. */
export const VERSION: string = version
