import { createMemoryWorkQueue } from '../src/storage/memory-work-queue'
import { describeWorkQueueContract } from './work-queue-contract'

describeWorkQueueContract(
  'memory',
  async () => ({ queue: createMemoryWorkQueue(), close: async () => {} }),
  { expiresClaims: false },
)
