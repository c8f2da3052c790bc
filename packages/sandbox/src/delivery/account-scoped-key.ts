/**
 * One map key for an id within an account: ids are unique per account only. The NUL separator
 * cannot occur in an account id or an object id, so two different pairs never share a key.
 */
export function accountScopedKey(accountId: string, id: string): string {
  return `${accountId}\u0000${id}`
}
