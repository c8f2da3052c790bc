/**
 * In-process notifications that an order changed, so open order pages (server-sent events)
 * re-render at once instead of waiting for their next database check.
 */
export interface OrderUpdates {
  publish(orderId: string): void
  subscribe(orderId: string, listener: () => void): () => void
}

export function createOrderUpdates(): OrderUpdates {
  const listeners = new Map<string, Set<() => void>>()
  return {
    publish(orderId) {
      for (const listener of listeners.get(orderId) ?? []) listener()
    },
    subscribe(orderId, listener) {
      const set = listeners.get(orderId) ?? new Set()
      listeners.set(orderId, set)
      set.add(listener)
      return () => {
        set.delete(listener)
        if (set.size === 0) listeners.delete(orderId)
      }
    },
  }
}
