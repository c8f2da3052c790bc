import { describeGiven } from '@chargekit/errors'
import type { ListEnvelope, Pagination } from '@chargekit/schemas'
import type { ApiPromise, ApiResponse } from './api-promise'
import { optionError } from './option-checks'

/** The most items one `toArray` collects: beyond it, a loop (`for await`) holds less in memory. */
const maxToArrayLimit = 10_000

/** Options of `toArray`: `limit` is required, so collecting a whole list is never an accident. */
export interface ToArrayOptions {
  /** How many items to collect at most, 1 to 10 000; fewer when the list ends first. */
  limit: number
}

/** The items of `items` up to `limit`, fetching no page beyond the one holding the last. */
async function collect<T>(items: AsyncIterable<T>, options: ToArrayOptions): Promise<T[]> {
  const limit = (options as Partial<ToArrayOptions> | undefined)?.limit
  if (
    typeof limit !== 'number' ||
    !Number.isInteger(limit) ||
    limit < 1 ||
    limit > maxToArrayLimit
  ) {
    throw optionError(
      'toArray',
      `limit must be a whole number from 1 to ${maxToArrayLimit} (got ${describeGiven(limit)})`,
    )
  }
  const collected: T[] = []
  for await (const item of items) {
    collected.push(item)
    if (collected.length >= limit) break
  }
  return collected
}

/** Fetches page `n` (1-based) of one list with fixed filters. */
export type PageFetcher<T> = (page: number) => ApiPromise<ListEnvelope<T>>

/**
 * One page of a list (`{ collection, pagination, filters }`). `for await (const item of page)` walks every item from
 * this page to the last, fetching each further page only when the loop reaches it.
 */
export class Page<T> implements AsyncIterable<T> {
  /** The items of this page, newest first. */
  readonly collection: T[]
  readonly pagination: Pagination
  /** The filters the service applied, as it echoes them. */
  readonly filters: Record<string, unknown>
  readonly #fetchPage: PageFetcher<T>

  constructor(envelope: ListEnvelope<T>, fetchPage: PageFetcher<T>) {
    this.collection = envelope.collection
    this.pagination = envelope.pagination
    this.filters = envelope.filters
    this.#fetchPage = fetchPage
  }

  /** Whether a later page exists (the empty-page check guards against a miscounted total). */
  hasNextPage(): boolean {
    const { page, per_page, total } = this.pagination
    return this.collection.length > 0 && page * per_page < total
  }

  /** The next page, or `undefined` after the last one. */
  async nextPage(): Promise<Page<T> | undefined> {
    if (!this.hasNextPage()) return undefined
    return new Page(await this.#fetchPage(this.pagination.page + 1), this.#fetchPage)
  }

  /**
   * Every item from this page on. Lists are newest first and page-numbered, so an object created
   * while iterating shifts older ones one place later and the first item of a page may repeat the
   * last of the previous one: such repeats (same `id`) are skipped.
   */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let page: Page<T> | undefined = this
    let previousIds = new Set<unknown>()
    while (page !== undefined) {
      const ids = new Set<unknown>()
      for (const item of page.collection) {
        const id = (item as { id?: unknown }).id
        ids.add(id)
        if (id !== undefined && previousIds.has(id)) continue
        yield item
      }
      previousIds = ids
      page = await page.nextPage()
    }
  }

  /** The items from this page on, up to `limit`, repeats skipped as in `for await`. */
  toArray(options: ToArrayOptions): Promise<T[]> {
    return collect(this, options)
  }
}

/**
 * What every `list()` returns: `await` it for the first page, or `for await` over it for every
 * item. Lazy: nothing is sent until it is awaited or iterated, and the first page is fetched once.
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  readonly #fetchPage: PageFetcher<T>
  readonly #startPage: number
  #first: Promise<ApiResponse<Page<T>>> | undefined

  /** `startPage`: the `page` parameter the caller passed, 1 by default. */
  constructor(fetchPage: PageFetcher<T>, startPage = 1) {
    this.#fetchPage = fetchPage
    this.#startPage = startPage
  }

  #answer(): Promise<ApiResponse<Page<T>>> {
    this.#first ??= this.#fetchPage(this.#startPage)
      .withResponse()
      .then((answer) => ({ ...answer, data: new Page(answer.data, this.#fetchPage) }))
    return this.#first
  }

  #load(): Promise<Page<T>> {
    return this.#answer().then((answer) => answer.data)
  }

  /**
   * The first page (not fetched again) with its status, headers, request id: as every call's
   * `withResponse()`.
   */
  withResponse(): Promise<ApiResponse<Page<T>>> {
    return this.#answer()
  }

  // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose, so `await list()` works.
  then<Result1 = Page<T>, Result2 = never>(
    onFulfilled?: ((page: Page<T>) => Result1 | PromiseLike<Result1>) | null,
    onRejected?: ((reason: unknown) => Result2 | PromiseLike<Result2>) | null,
  ): Promise<Result1 | Result2> {
    return this.#load().then(onFulfilled, onRejected)
  }

  catch<Result = never>(
    onRejected?: ((reason: unknown) => Result | PromiseLike<Result>) | null,
  ): Promise<Page<T> | Result> {
    return this.#load().catch(onRejected)
  }

  finally(onFinally?: (() => void) | null): Promise<Page<T>> {
    return this.#load().finally(onFinally)
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    yield* await this.#load()
  }

  /**
   * Every item of the list, up to `limit`, as one array: `list({ charge }).toArray({ limit: 500 })`.
   * Pages are fetched until `limit` items are collected or the list ends. A bad `limit` rejects
   * before anything is sent.
   */
  async toArray(options: ToArrayOptions): Promise<T[]> {
    return collect(this, options)
  }
}
