import { randomUUID } from 'node:crypto'
import type { InstrumentExternalIds, TransactionExternalIds } from '@chargekit/schemas'
import type { Processor } from '../processors/processor'

const defaultDescriptor = 'CHARGEKIT*SANDBOX'

/**
 * The processor's references for an authorization; with the processor's `transactionId` for it
 * when it gave one (a documented instrument has only descriptor and processor).
 */
export function instrumentExternalIds(
  processor: Processor,
  transactionId?: string,
): InstrumentExternalIds {
  const ids = { descriptor: processor.descriptor ?? defaultDescriptor, processor: processor.name }
  return transactionId === undefined ? ids : { ...ids, ...transactionIds(transactionId) }
}

/** The processor's references for a money movement; the id is made up when it gave none. */
export function transactionExternalIds(
  processor: Processor,
  transactionId = `txn_${randomUUID().replaceAll('-', '')}`,
): TransactionExternalIds {
  return {
    descriptor: processor.descriptor ?? defaultDescriptor,
    processor: processor.name,
    ...transactionIds(transactionId),
  }
}

function transactionIds(transactionId: string) {
  return { transaction_id: transactionId, transaction_id_trunc: transactionId.slice(-8) }
}
