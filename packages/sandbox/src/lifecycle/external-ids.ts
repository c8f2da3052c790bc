import { randomUUID } from 'node:crypto'
import type { InstrumentExternalIds, TransactionExternalIds } from '@chargekit/schemas'
import type { Processor } from '../processors/processor'

const defaultDescriptor = 'CHARGEKIT*SANDBOX'

export function instrumentExternalIds(processor: Processor): InstrumentExternalIds {
  return { descriptor: processor.descriptor ?? defaultDescriptor, processor: processor.name }
}

/** The processor's references for a money movement; the id is made up when it gave none. */
export function transactionExternalIds(
  processor: Processor,
  transactionId = `txn_${randomUUID().replaceAll('-', '')}`,
): TransactionExternalIds {
  return {
    descriptor: processor.descriptor ?? defaultDescriptor,
    processor: processor.name,
    transaction_id: transactionId,
    transaction_id_trunc: transactionId.slice(-8),
  }
}
