import { invalidParameters } from './api-problem'

/** More fields than any request of the API has, by far; a bigger form is not an integration. */
export const maxFormFields = 1000

// `name`, then any number of `[segment]`: `metadata[order]`, `channels[]`, `channels[0]`.
const fieldName = /^([^[\]]+)((?:\[[^[\]]*\])*)$/
const bracketSegment = /\[([^[\]]*)\]/g
const forbiddenKeys: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

type FormValue = string | FormObject | FormList
/** Fields by key, in the order first seen. */
type FormObject = Map<string, FormValue>
/** Items under `name[]` (appended) or `name[0]`, `name[1]` (placed by index). */
interface FormList {
  appended: FormValue[]
  indexed: Map<number, FormValue>
}

/**
 * Ours rather than hono's parseBody, which reads `metadata[order]` as a flat key and bounds
 * neither the field count nor the nesting.
 *
 * Reads an `application/x-www-form-urlencoded` body into the object a JSON body would be, with
 * the bracket conventions of PHP's `http_build_query` and Rails: `metadata[order]=7` is
 * `{"metadata": {"order": "7"}}`, `channels[]=a&channels[]=b` and `channels[0]=a&channels[1]=b`
 * are `{"channels": ["a", "b"]}`. Every value is a string (the request schema decides what a
 * string may stand for). At most {@link maxFormFields} fields nested at most `maxDepth` levels;
 * a name used twice for one value, used both as a value and as a container, or a
 * `__proto__`/`constructor`/`prototype` key is refused: 400 naming the field.
 */
export function parseFormBody(text: string, maxDepth: number): Record<string, unknown> {
  const problems = new Map<string, string[]>()
  const refuse = (name: string, message: string) => problems.set(name, [message])
  const fields = new URLSearchParams(text)
  let count = 0
  const root: FormObject = new Map()
  for (const [name, value] of fields) {
    if (++count > maxFormFields) {
      throw invalidParameters({ '(root)': [`Expected at most ${maxFormFields} form fields`] })
    }
    const segments = segmentsOf(name)
    if (segments === undefined) {
      refuse(name, 'Expected a field name such as amount, metadata[order] or channels[]')
    } else if (segments.length > maxDepth) {
      refuse(name, `Expected fields nested at most ${maxDepth} levels deep`)
    } else if (segments.some((segment) => forbiddenKeys.has(segment))) {
      refuse(name, 'Expected a key that is not __proto__, constructor or prototype')
    } else {
      const conflict = place(root, segments, value)
      if (conflict !== undefined) refuse(name, conflict)
    }
  }
  if (problems.size > 0) throw invalidParameters(Object.fromEntries(problems))
  return plainObject(root)
}

function segmentsOf(name: string): string[] | undefined {
  const match = fieldName.exec(name)
  if (match === null) return undefined
  const [, first = '', brackets = ''] = match
  return [first, ...Array.from(brackets.matchAll(bracketSegment), (segment) => segment[1] ?? '')]
}

/** Puts `value` at `segments` under `root`; answers what is wrong if the field cannot be there. */
function place(root: FormObject, segments: readonly string[], value: string): string | undefined {
  let container: FormObject | FormList = root
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index] ?? ''
    const last = index === segments.length - 1
    const next = segments[index + 1]
    const child: FormValue = last ? value : next === '' || isIndex(next) ? newList() : new Map()
    const existing = get(container, segment)
    if (existing === undefined) {
      const conflict = put(container, segment, child)
      if (conflict !== undefined) return conflict
      if (last) return undefined
      container = child as FormObject | FormList
      continue
    }
    if (last) return 'Expected each field once (use name[] for a list)'
    if (typeof existing === 'string' || existing instanceof Map !== child instanceof Map) {
      return 'Expected a field to be one value, a list (name[]) or fields (name[key]), not several of these'
    }
    container = existing
  }
  return undefined
}

function newList(): FormList {
  return { appended: [], indexed: new Map() }
}

function isIndex(segment: string | undefined): boolean {
  return segment !== undefined && /^\d{1,6}$/.test(segment)
}

function get(container: FormObject | FormList, segment: string): FormValue | undefined {
  if (container instanceof Map) return container.get(segment)
  // `name[]` always starts a new item.
  return segment === '' ? undefined : container.indexed.get(Number(segment))
}

function put(container: FormObject | FormList, segment: string, child: FormValue) {
  if (container instanceof Map) {
    container.set(segment, child)
    return undefined
  }
  if (segment === '') {
    if (container.indexed.size > 0) return 'Expected a list to use name[] or name[0], not both'
    container.appended.push(child)
    return undefined
  }
  if (!isIndex(segment)) return 'Expected a list index such as name[0] (at most 6 digits)'
  if (container.appended.length > 0) return 'Expected a list to use name[] or name[0], not both'
  container.indexed.set(Number(segment), child)
  return undefined
}

function plainValue(value: FormValue): unknown {
  if (typeof value === 'string') return value
  if (value instanceof Map) return plainObject(value)
  // Indices order the items; gaps close up, as the form can only mean a list.
  const items =
    value.indexed.size > 0
      ? [...value.indexed].sort(([a], [b]) => a - b).map(([, item]) => item)
      : value.appended
  return items.map(plainValue)
}

function plainObject(object: FormObject): Record<string, unknown> {
  return Object.fromEntries(Array.from(object, ([key, value]) => [key, plainValue(value)]))
}
