/**
 * The `Authorization: Basic …` value: account id and private key, or public key and an empty
 * password (the browser client).
 * Encodes UTF-8 first: `btoa` alone throws on characters outside Latin-1.
 */
export function basicAuthorization(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`)
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return `Basic ${btoa(binary)}`
}
