import * as z from 'zod/v4'
import { isKnownCurrency, unknownCurrencyMessage } from './currency-codes'

/** An ISO 4217 currency code (upper case) known to the runtime's `Intl`. */
export const currencySchema = z.string().refine(isKnownCurrency, { error: unknownCurrencyMessage })
