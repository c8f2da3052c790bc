/**
 * The `Authorization: Basic …` value for an account id (the user) and private key (the password).
 * Encodes UTF-8 first: `btoa` alone throws on characters outside Latin-1.
 */
export function basicAuthorization(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`)
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return `Basic ${btoa(binary)}`
}
