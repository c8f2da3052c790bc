/**
 * `chargekit-sandbox --processor <this module>` loads the default export (a processor, or an
 * array of them).
 */
export { voucher } from './voucher'
export { voucherProcessor, voucherProcessor as default } from './voucher-processor'
