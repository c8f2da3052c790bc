import type { Pagination } from './data-shapes'
import { h } from './dom'

/**
 * Newer / older links of a list view, keeping its filters (`params`) and changing only `page`,
 * and where the page stands: `31–60 of 75 charges · page 2 of 3`.
 */
export function pageLinks(
  { page, per_page: perPage, total }: Pagination,
  params: URLSearchParams,
  path: string,
  noun: string,
): HTMLElement {
  const pages = Math.max(1, Math.ceil(total / perPage))
  const first = total === 0 ? 0 : (page - 1) * perPage + 1
  const last = Math.min(total, page * perPage)
  const pageLink = (target: number, rel: string, label: string) => {
    const query = new URLSearchParams(params)
    query.set('page', String(target))
    return h('a', { href: `${path}?${query}`, rel }, label)
  }
  return h(
    'nav',
    { class: 'pagination', 'aria-label': 'Pages' },
    page > 1 ? pageLink(page - 1, 'prev', '← Newer') : h('span', { class: 'muted' }, '← Newer'),
    h('span', null, `${first}–${last} of ${total} ${noun} · page ${page} of ${pages}`),
    page < pages ? pageLink(page + 1, 'next', 'Older →') : h('span', { class: 'muted' }, 'Older →'),
  )
}
