import { afterEach, describe, expect, it } from 'vitest'
import { TimerQueue } from '../src/delivery/timer-queue'
import { eventually } from './delivery-receiver'
import { type TimerTracker, trackDeliveryTimers } from './delivery-timers'

let timers: TimerTracker | undefined
afterEach(() => {
  timers?.stop()
  timers = undefined
})

function queue() {
  const fired: string[] = []
  return { fired, queue: new TimerQueue<string>((item) => fired.push(item)) }
}

describe('TimerQueue', () => {
  it('fires items in due order, ties in insertion order', async () => {
    const { fired, queue: waiting } = queue()
    const now = Date.now()
    waiting.add('c', now + 30)
    waiting.add('a', now + 10)
    waiting.add('b1', now + 20)
    waiting.add('b2', now + 20)

    await eventually(() => fired.length === 4)

    expect(fired).toEqual(['a', 'b1', 'b2', 'c'])
  })

  it('never fires a removed item, whether it was the earliest or not', async () => {
    const { fired, queue: waiting } = queue()
    const now = Date.now()
    for (const [index, item] of ['a', 'b', 'c', 'd', 'e', 'f'].entries()) {
      waiting.add(item, now + 10 * (index + 1))
    }

    waiting.remove('a')
    waiting.remove('d')
    waiting.remove('not-waiting')
    await eventually(() => fired.includes('f'))

    expect(fired).toEqual(['b', 'c', 'e', 'f'])
  })

  it('keeps no timer once every waiting item is removed', async () => {
    timers = trackDeliveryTimers()
    const { fired, queue: waiting } = queue()
    const items = Array.from({ length: 50 }, (_, index) => `item_${index}`)
    for (const [index, item] of items.entries()) waiting.add(item, Date.now() + 3_600_000 + index)
    expect(timers.live()).toBe(1)

    for (const item of items.reverse()) waiting.remove(item)

    await eventually(() => timers?.live() === 0, 5_000, 'retry timer cleared')
    expect(fired).toEqual([])
  })

  it('refuses an item that is already waiting', () => {
    const { queue: waiting } = queue()
    waiting.add('a', Date.now() + 1_000)
    expect(() => waiting.add('a', Date.now() + 2_000)).toThrow(/already waiting/)
    waiting.clear()
  })
})
