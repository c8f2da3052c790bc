/** What an issuer lookup by BIN returns. */
export interface IssuerInfo {
  readonly bank: string
  readonly bank_phone: string
  readonly bank_website: string
  readonly country: string
  readonly country_isoa2: string
  readonly country_isoa3: string
  readonly country_isonumber: string
  readonly type: 'CREDIT' | 'DEBIT' | 'PREPAID'
}

const unitedStates = {
  country: 'United States',
  country_isoa2: 'US',
  country_isoa3: 'USA',
  country_isonumber: '840',
} as const

const mexico = {
  country: 'Mexico',
  country_isoa2: 'MX',
  country_isoa3: 'MEX',
  country_isonumber: '484',
} as const

const germany = {
  country: 'Germany',
  country_isoa2: 'DE',
  country_isoa3: 'DEU',
  country_isonumber: '276',
} as const

/**
 * A few well-known test BINs with plausible issuers. The sandbox has no real BIN database;
 * unknown BINs fall back to a per-brand test issuer so every field is always filled.
 */
const byBin: ReadonlyMap<string, IssuerInfo> = new Map([
  [
    '424242',
    {
      bank: 'Chargekit Test Bank',
      bank_phone: '+1 800 555 0100',
      bank_website: 'https://bank.example.com',
      type: 'CREDIT',
      ...unitedStates,
    },
  ],
  [
    '400005',
    {
      bank: 'Chargekit Debit Union',
      bank_phone: '+1 800 555 0101',
      bank_website: 'https://debit.example.com',
      type: 'DEBIT',
      ...unitedStates,
    },
  ],
  [
    '555555',
    {
      bank: 'Banco de Pruebas',
      bank_phone: '+52 55 5555 0100',
      bank_website: 'https://banco.example.mx',
      type: 'CREDIT',
      ...mexico,
    },
  ],
  [
    '520082',
    {
      bank: 'Testbank Frankfurt',
      bank_phone: '+49 69 555 0100',
      bank_website: 'https://testbank.example.de',
      type: 'DEBIT',
      ...germany,
    },
  ],
])

const fallback: IssuerInfo = {
  bank: 'Chargekit Sandbox Issuer',
  bank_phone: '+1 800 555 0199',
  bank_website: 'https://issuer.example.com',
  type: 'CREDIT',
  ...unitedStates,
}

export function issuerOf(bin: string): IssuerInfo {
  return byBin.get(bin) ?? fallback
}
