/**
 * Realistic payloads of every documented shape, filled the way the service fills them.
 * For this package's tests (and its benchmark) only: other packages build their own data.
 */

export const requestLog = {
  ip_address: '203.0.113.24',
  country: 'MX',
  user_agent:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  library_version: 'chargekit-client/0.1.0',
}

export const channel = {
  id: 'cn_6b1f0c2e9a',
  label: 'card_onetime_no_processor',
  processor: 'no_processor',
}

/** A Charge with every documented field (response form). */
export const charge = {
  id: 'ch_7QmZ2vKp4sT9',
  charge_type: 'card_onetime',
  charge_type_label: 'Card one-time',
  amount: 1250.5,
  currency: 'MXN',
  events_url: 'https://shop.example.com/webhooks/chargekit',
  redirect_url: '',
  metadata: { order_id: 'ord_1042', customer_email: 'ana@example.com' },
  instrument_params: { captured_on_creation: true, enable3ds: false },
  channels: [channel],
  confirmed: true,
  external_ids: null,
  external: false,
  failure_code: null,
  failure_description: null,
  created_at: '2025-03-14T15:09:26.535Z',
  updated_at: '2025-03-14T15:09:26.612Z',
  expires_at: '2025-03-15T15:09:26.535Z',
  request_log: requestLog,
}

/** Instrument card params with every documented field. */
export const cardParams = {
  bank: 'BBVA Bancomer',
  bank_phone: '+52 55 5226 2663',
  bank_website: 'https://www.bbva.mx',
  bin: '411111',
  brand: 'VISA',
  country: 'Mexico',
  country_isoa2: 'MX',
  country_isoa3: 'MEX',
  country_isonumber: '484',
  enable3ds: false,
  expiration_month: 12,
  expiration_year: 2030,
  fingerprint: 'fp_3c9a41e07d2b5f68',
  last_4_digits: '1111',
  name: 'Ana García',
  type: 'CREDIT',
}

/** An Instrument with only the documented fields (what the production service sends). */
export const specInstrument = {
  id: 'in_Vb83kQ1nZx0',
  status: 'authorized',
  success: true,
  channel,
  customer: null,
  external_ids: { descriptor: 'CHARGEKIT*SHOP', processor: 'auth_4Xk29' },
  failure_description: null,
  redirect: null,
  request_log: requestLog,
  params: cardParams,
  created_at: '2025-03-14T15:10:02.101-06:00',
  updated_at: '2025-03-14T15:10:02.877-06:00',
}

/** The same instrument as the sandbox serves it, with chargekit's additions. */
export const instrument = {
  ...specInstrument,
  charge: {
    id: charge.id,
    charge_type: charge.charge_type,
    charge_type_label: charge.charge_type_label,
  },
  last_payment: { id: 'pa_Lr5tY8wE2q', success: true, status: 'success' },
  used: true,
  amount: 1250.5,
  currency: 'MXN',
  captured_amount: 1250.5,
  recurring: false,
  captured_on_creation: true,
  failure_code: null,
}

const transactionExternalIds = {
  descriptor: 'CHARGEKIT*SHOP',
  processor: 'no_processor',
  transaction_id: 'tx_0f9e8d7c6b5a49382716',
  transaction_id_trunc: 'tx_0f9e8d7c',
}

/** A Payment with only the documented fields. */
export const specPayment = {
  id: 'pa_Lr5tY8wE2q',
  amount: 1250.5,
  currency: 'MXN',
  description: 'Order ord_1042',
  success: true,
  failure_description: null,
  metadata: { order_id: 'ord_1042' },
  params: null,
  external_ids: transactionExternalIds,
  request_log: requestLog,
  created_at: '2025-03-14T21:10:03Z',
  updated_at: '2025-03-14T21:10:03Z',
}

export const payment = {
  ...specPayment,
  charge: instrument.charge,
  instrument: { id: instrument.id },
  refunds: [{ id: 're_Qw2eR4tY6u', amount: 200, success: true }],
  status: 'success',
  failure_code: null,
  refunded_amount: 200,
  settled_at: null,
}

/** A Refund with only the documented fields. */
export const specRefund = {
  id: 're_Qw2eR4tY6u',
  amount: 200,
  description: 'Returned one item',
  success: true,
  failure_description: null,
  external_ids: { ...transactionExternalIds, transaction_id: 'tx_1a2b3c4d5e6f' },
  request_log: requestLog,
  created_at: '2025-03-16T09:30:00+01:00',
}

export const refund = {
  ...specRefund,
  payment: payment.id,
  charge: charge.id,
  currency: 'MXN',
  status: 'success',
  failure_code: null,
  settled_at: '2025-03-17T00:00:00Z',
}

export const reversal = {
  id: 'rv_9Hs7Df5Gh3',
  charge: charge.id,
  instrument: instrument.id,
  amount: 1250.5,
  currency: 'MXN',
  success: true,
  status: 'success',
  failure_code: null,
  failure_description: null,
  external_ids: transactionExternalIds,
  request_log: requestLog,
  created_at: '2025-03-14T21:20:00Z',
}

export const settlement = {
  id: 'st_2Bn4Mk6Lj8',
  created_at: '2025-03-17T00:00:00Z',
  payments: [payment.id],
  refunds: [refund.id],
  instruments: [instrument.id],
  totals: [{ currency: 'MXN', payments_amount: 1250.5, refunds_amount: 200, net_amount: 1050.5 }],
}

export const dispute = {
  id: 'dp_5Tg7Yh9Uj1',
  charge: charge.id,
  payment: payment.id,
  amount: 1250.5,
  currency: 'MXN',
  reason: 'fraudulent',
  status: 'open',
  created_at: '2025-03-20T10:00:00Z',
  updated_at: '2025-03-20T10:00:00Z',
  settled_at: null,
}

/** The full form of an event with every object filled (GET /v2/events/{id}). */
export const fullEvent = {
  id: 'ev_8Kj6Hg4Fd2',
  created_at: '2025-03-16T08:30:00.250Z',
  object_id: refund.id,
  result_status: 200,
  retries_log: [
    { created_at: '2025-03-16T08:35:00Z', result_status: 200 },
    { created_at: '2025-03-16T08:30:05Z', result_status: 503 },
  ],
  type: 'refund.success',
  type_label: 'Refund success',
  charge,
  instrument,
  payment,
  refund,
  reversal,
  dispute,
  settlement,
  dismissed_at: null,
  delivery_status: 'delivered',
  next_attempt_at: null,
}

/** The full form with only the documented fields, settlement null. */
export const specFullEvent = {
  id: 'ev_3Xc5Vb7Nm9',
  created_at: '2025-03-14T15:10:03-06:00',
  object_id: specInstrument.id,
  result_status: 200,
  retries_log: [],
  type: 'instrument.authorized',
  type_label: 'Instrument authorized',
  charge,
  instrument: specInstrument,
  payment: specPayment,
  refund: specRefund,
  dismissed_at: null,
  settlement: null,
}

/** The compact form, as delivered. */
export const compactEvent = {
  id: 'ev_3Xc5Vb7Nm9',
  type: 'instrument.authorized',
  charge: {
    id: charge.id,
    type: 'card_onetime',
    amount: 1250.5,
    currency: 'MXN',
    metadata: { order_id: 'ord_1042' },
  },
  instrument: {
    id: specInstrument.id,
    failure_description: null,
    request_log: requestLog,
    recurring: false,
    captured_on_creation: true,
  },
  payment: { id: specPayment.id },
}

/** The documented instrument-creation error body (a 402 with an amount-coded test error). */
export const processorErrorBody = {
  message: 'Transaction Error',
  metadata: {
    failure_description: 'Unsafe Transaction',
    charge: charge.id,
    instrument: 'in_Failed01',
  },
  failure_code: '06.02.0000',
  failure_description: 'Unsafe Transaction',
}

export const validationErrorBody = {
  message: 'Invalid request parameters',
  failure_code: '01.01.0000',
  failure_description: 'Invalid Parameters',
  parameters: { 'channels.0': ['Expected string, received number'] },
}

/** The documented create-charge request: charge_type, amount, currency, events_url, channels. */
export const createChargeRequest = {
  charge_type: 'card_onetime',
  amount: 6020000.2,
  currency: 'MXN',
  events_url: 'https://shop.example.com/webhooks/chargekit',
  channels: ['card_onetime_no_processor'],
}

/** The documented create-instrument request. */
export const createInstrumentRequest = {
  charge: charge.id,
  name: 'Ana García',
  number: '4111111111111111',
  expiration_month: 12,
  expiration_year: 2030,
  cvc: '123',
}
