import type { CategorizedCode } from './categories'

/**
 * Every code of the service's catalogue, in its documented order. 05.02.0000 is documented twice
 * (Processor Configuration Error, Invalid Processor Credentials); it is one code, so it is one
 * row here that keeps the second designation as an alias and both descriptions.
 * Designations are verbatim, including the "Expired/ Restricted" spacing, because the
 * service reports them as `failure_description` and integrations may compare them.
 */
interface CatalogueRow {
  /** Typed with its prefix, so a row whose prefix has no category does not compile. */
  readonly code: CategorizedCode
  readonly designation: string
  readonly description: string
  readonly aliases?: readonly string[]
}

export const catalogue = [
  {
    code: '01.01.0000',
    designation: 'Invalid Parameters',
    description: 'Invalid request parameters (for example an e-mail address)',
  },
  {
    code: '01.02.0000',
    designation: 'Amount Mismatch',
    description: 'Amount does not match the request',
  },
  {
    code: '01.03.0000',
    designation: 'Instrument Mismatch',
    description: "Instrument does not meet the processor's criteria",
  },
  {
    code: '02.00.0001',
    designation: 'Failure',
    description: 'Failure originated in the processor',
  },
  {
    code: '02.01.0000',
    designation: 'Too Many Tries',
    description: 'Maximum number of tries exceeded',
  },
  {
    code: '02.02.0000',
    designation: 'Limit Exceeded',
    description: 'Customer exceeds the maximum allowed limit',
  },
  { code: '02.03.0000', designation: 'Insufficient Funds', description: 'Not enough funds' },
  { code: '02.04.0000', designation: 'Temporary Issue', description: 'Temporary problem; retry' },
  {
    code: '03.00.0001',
    designation: 'Processor Declined',
    description: 'Processor refused the request',
  },
  { code: '03.00.0002', designation: 'Instrument Expired', description: 'Instrument expired' },
  {
    code: '03.01.0000',
    designation: 'Disabled Account',
    description: "Customer's account disabled",
  },
  {
    code: '03.02.0000',
    designation: 'Unsupported Value',
    description: 'Unsupported value; review and retry',
  },
  {
    code: '03.02.0001',
    designation: 'Unsupported Scheme',
    description: 'Instrument does not support this type of purchase',
  },
  {
    code: '03.02.0002',
    designation: 'Unsupported BIN',
    description: 'Unsupported bank identification number',
  },
  { code: '03.03.0000', designation: 'Card is Declined', description: 'Refused by the issuer' },
  {
    code: '03.03.0001',
    designation: 'Card is Flagged as Lost/Stolen/Expired/ Restricted',
    description: 'Card flagged as lost, stolen, expired or restricted',
  },
  {
    code: '03.04.0000',
    designation: 'Duplicate Operation',
    description: 'Same request already submitted',
  },
  {
    code: '04.01.0000',
    designation: 'Processor Unavailable',
    description: 'Processor cannot confirm the transaction',
  },
  {
    code: '04.02.0000',
    designation: 'Timeout Communicating With Processor',
    description: 'Server took too long; check the transaction status, retry if needed',
  },
  {
    code: '05.01.0000',
    designation: 'Configuration Error',
    description: 'Channel incorrectly configured',
  },
  {
    code: '05.02.0000',
    designation: 'Processor Configuration Error',
    description:
      'Processor incorrectly configured; as Invalid Processor Credentials: credentials do not grant access to the resource',
    aliases: ['Invalid Processor Credentials'],
  },
  {
    code: '05.01.0002',
    designation: 'Merchant Configuration Error',
    description: 'Merchant account incorrectly configured in the processor',
  },
  { code: '05.03.0000', designation: 'Authorization Error', description: 'Permissions error' },
  {
    code: '05.03.0001',
    designation: 'Processor Authorization Error',
    description: 'Permissions error from the processor',
  },
  {
    code: '05.03.0002',
    designation: 'Merchant Authorization Error',
    description: 'Access denied; verify account permissions',
  },
  {
    code: '05.04.0000',
    designation: 'Feature Not Available',
    description: 'Feature does not exist',
  },
  {
    code: '05.04.0001',
    designation: 'Instrument Already Captured',
    description:
      'Instrument status does not allow the request (for example reversing an already captured card authorization)',
  },
  {
    code: '05.04.0002',
    designation: 'Instrument Not Authorized',
    description:
      'Instrument verification does not allow the request (for example reversing a 3DS card authorization not yet authorized)',
  },
  {
    code: '06.00.0000',
    designation: 'Security Risk',
    description: 'Risk declines fitting no other category',
  },
  {
    code: '06.01.0000',
    designation: '3DS Error',
    description: 'Problem with the 3D Secure protocol',
  },
  { code: '06.01.0001', designation: '3DS Not Allowed', description: '3D Secure not supported' },
  {
    code: '06.01.0002',
    designation: '3DS Required',
    description: '3D Secure verification required',
  },
  {
    code: '06.02.0000',
    designation: 'Unsafe Transaction',
    description: "Flagged by the processor's risk rules",
  },
  {
    code: '99.00.0000',
    designation: 'Unspecified Error',
    description: 'Unknown errors fitting no other category',
  },
  {
    code: '99.01.0000',
    designation: 'Internal Server Error',
    description: 'Internal error or misconfiguration',
  },
  {
    code: '99.02.0000',
    designation: 'Processor Integration Error',
    description: 'Problem with the processor integration',
  },
  {
    code: '99.02.0001',
    designation: 'Unexpected Processor Response',
    description: 'Response does not match expected parameters',
  },
  {
    code: '99.02.0002',
    designation: 'Unable To Read Processor Response',
    description: 'Response cannot be interpreted',
  },
  {
    code: '99.02.0003',
    designation: 'Processor Resource Not Found',
    description: "Processor-issued resources do not match the request's needs",
  },
  {
    code: '99.02.0004',
    designation: 'Processor Unhandled Error',
    description: 'Unspecified failure not addressed by the processor',
  },
] as const satisfies readonly CatalogueRow[]
