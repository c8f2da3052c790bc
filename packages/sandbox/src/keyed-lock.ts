/**
 * Runs tasks one at a time per key. The lifecycle locks a charge for each step, so two
 * concurrent captures of one instrument cannot both pass the amount check while the first is
 * waiting for its processor.
 */
export interface KeyedLock {
  run<T>(key: string, task: () => Promise<T>): Promise<T>
}

export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<unknown>>()
  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve()
      const result = previous.then(task, task)
      const tail = result.catch(() => undefined)
      tails.set(key, tail)
      // The map only holds keys with work queued, so it does not grow with every charge.
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key)
      })
      return result
    },
  }
}
