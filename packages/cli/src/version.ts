// A named import of one JSON field: tsup inlines the string, so the bin reads no file at run time.
import { version } from '../package.json'

/** The version of the `chargekit` package, printed by `--version` and sent as the User-Agent. */
export const VERSION: string = version
