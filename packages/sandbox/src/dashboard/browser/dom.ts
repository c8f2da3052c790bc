/** Element building and the app page's fixed elements. */

export type Child = Node | string | number | false | null | undefined | readonly Child[]
type AttributeValue = string | number | boolean | null | undefined
export type Attributes = Record<string, AttributeValue | ((event: Event) => void)>

// Present on both pages; the status region and the live badge only on the app page.
export const main = document.getElementById('main') as HTMLElement
const statusRegion = document.getElementById('status')
export const liveBadge = document.getElementById('live')
export const wideScreen = window.matchMedia('(min-width: 48rem)')

/**
 * Builds an element. Children are nodes or text, never parsed as HTML, so data cannot inject
 * markup. Attributes that are null, undefined or false are left out; `on…` functions become
 * event listeners.
 */
export function h<Tag extends keyof HTMLElementTagNameMap>(
  tag: Tag,
  attributes?: Attributes | null,
  ...children: Child[]
): HTMLElementTagNameMap[Tag] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue
    if (typeof value === 'function') element.addEventListener(name.slice(2), value)
    else element.setAttribute(name, value === true ? '' : String(value))
  }
  appendChildren(element, children)
  return element
}

function appendChildren(element: Element, children: readonly Child[]): void {
  for (const child of children) {
    if (Array.isArray(child)) appendChildren(element, child)
    else if (child === undefined || child === null || child === false || child === '') continue
    else element.append(child instanceof Node ? child : String(child))
  }
}

/** Replaces a container's content and keeps keyboard focus on the same link if it is still there. */
export function replaceKeepingFocus(container: Element, ...nodes: Node[]): void {
  const focused = document.activeElement
  const href = focused && container.contains(focused) ? focused.getAttribute('href') : null
  container.replaceChildren(...nodes)
  if (href) container.querySelector<HTMLElement>(`[href="${CSS.escape(href)}"]`)?.focus()
}

/** Tells screen-reader users about a change they did not cause. */
export function announce(message: string): void {
  if (statusRegion) statusRegion.textContent = message
}

export function fact(label: string, value: Child): Child {
  return [h('dt', null, label), h('dd', null, value)]
}

export function errorMessage(text: string): HTMLElement {
  return h('p', { class: 'error', role: 'alert' }, text)
}
