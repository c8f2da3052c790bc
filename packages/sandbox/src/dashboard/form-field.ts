/** A text field of a parsed form body: '' when it is missing, repeated or a file. */
export function formField(value: unknown): string {
  return typeof value === 'string' ? value : ''
}
