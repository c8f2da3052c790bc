/**
 * One key for an id within an account: ids are unique per account only. The account id's length
 * comes first, so two different pairs never share a key whatever characters the ids hold, and
 * the key is plain text a database column can store (no NUL separator).
 */
export function accountScopedKey(accountId: string, id: string): string {
  return `${accountId.length}:${accountId}:${id}`
}
