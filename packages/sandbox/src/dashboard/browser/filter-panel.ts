/** The fold-out filter panel the list views (charges, events) share, and its labelled fields. */

import { h, wideScreen } from './dom'

/** Open on a wide screen, or wherever a filter is active, so an active one is never hidden. */
export function filterPanel(activeFilters: number, form: HTMLFormElement): HTMLElement {
  return h(
    'details',
    { class: 'filter-panel', open: activeFilters > 0 || wideScreen.matches },
    h('summary', null, activeFilters > 0 ? `Filters (${activeFilters} active)` : 'Filters'),
    form,
  )
}

export function field(label: string, control: HTMLElement, hint?: string): HTMLElement {
  return h(
    'label',
    { class: 'field' },
    h('span', null, label),
    control,
    hint ? h('small', null, hint) : null,
  )
}
