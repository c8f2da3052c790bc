/**
 * The `Authorization` header of an account's request: Basic with the account id as user and
 * the key (private, or public with an empty password) as password.
 */
export function authorization(accountId: string, key: string): string {
  const bytes = new TextEncoder().encode(`${accountId}:${key}`)
  return `Basic ${btoa(String.fromCharCode(...bytes))}`
}
