import { createHmac } from 'node:crypto'

/**
 * An account's fingerprint of a card or phone number: an HMAC keyed per account, so it
 * identifies the same value within the account and, unlike a plain hash, cannot be reversed by
 * hashing every possible card number.
 */
export function keyedFingerprint(key: Buffer): (value: string) => string {
  return (value) => createHmac('sha256', key).update(value).digest('base64url').slice(0, 32)
}
