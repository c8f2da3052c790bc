/**
 * Compile-time checks of the public types, run by `tsc -p packages/schemas` (typecheck): each
 * `@ts-expect-error` fails the build if the line it guards ever stops being an error.
 */
import type * as z from 'zod/v4'
import type {
  ApiErrorBody,
  Charge,
  ChargeTypeInfo,
  CompactEvent,
  DeliveryPayload,
  Dispute,
  Event,
  EventOf,
  EventType,
  GenericEvent,
  Instrument,
  KnownEvent,
  Pagination,
  Payment,
  PaymentEvent,
  ProcessorErrorBody,
  Refund,
  Reversal,
  Settlement,
  UnknownEvent,
  ValidationErrorBody,
} from '../src/index'
import {
  type apiErrorBodySchema,
  type chargeSchema,
  type chargeTypeInfoSchema,
  type compactEventSchema,
  type deliveryPayloadSchema,
  type disputeSchema,
  type eventSchema,
  type instrumentSchema,
  isEventOfType,
  isKnownEvent,
  type paginationSchema,
  type paymentSchema,
  type processorErrorBodySchema,
  type refundSchema,
  type reversalSchema,
  type settlementSchema,
  type validationErrorBodySchema,
} from '../src/index'

export function switchNarrowsWithoutAGuard(event: Event): string | undefined {
  switch (event.type) {
    case 'payment.success': {
      const payment: Payment = event.payment
      const named: PaymentEvent<'payment.success'> = event
      return payment.id + named.id
    }
    case 'refund.settled':
      return event.refund.id
    case 'charge.error':
      // @ts-expect-error a charge event may have no instrument
      return event.instrument.id
    default:
      return undefined
  }
}

export function ifNarrowsToo(event: Event): string | undefined {
  if (event.type === 'dispute.created') return event.dispute.reason
  if (isKnownEvent(event) && event.type === 'payment.success') return event.payment.id
  if (isEventOfType(event, 'refund.settled')) return event.refund.id
  return undefined
}

export function familyObjectsOnly(event: EventOf<'charge.created'>): string {
  // @ts-expect-error a charge event may have no instrument
  const instrumentId: string = event.instrument.id
  return event.charge.id + instrumentId
}

export function unknownEventsStayGeneric(event: UnknownEvent): unknown {
  // @ts-expect-error an unknown event may have no payment
  const paymentId: string = event.payment.id
  const type: string = event.type
  return [paymentId, type]
}

export function genericCodeKeepsKnownEvents<T extends EventType>(event: EventOf<T>): KnownEvent {
  return event
}

// @ts-expect-error a plain string is not an UnknownEventType: known events are never unknown ones
export const notUnknown: UnknownEvent['type'] = 'payment.success'

export function typosAreCompileErrors(charge: Charge, instrument: Instrument): unknown {
  // @ts-expect-error no such field: the public types have no string index signature
  const metadata = charge.metdata
  // @ts-expect-error nested resources are named interfaces too
  const label = charge.channels?.[0]?.lable
  // @ts-expect-error
  const redirectUrl = instrument.redirect?.uri
  return [metadata, label, redirectUrl]
}

/**
 * Each named interface declares exactly the fields its schema reads, and what the schema yields
 * fits the interface: a field added to one and not the other fails the build.
 */
type SameKeys<A, B> = [Exclude<keyof A, KnownKeys<B>>, Exclude<KnownKeys<B>, keyof A>] extends [
  never,
  never,
]
  ? true
  : {
      onlyInInterface: Exclude<keyof A, KnownKeys<B>>
      onlyInSchema: Exclude<KnownKeys<B>, keyof A>
    }
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : K]: T[K] }
type Agrees<Interface, Schema extends z.ZodType> =
  z.output<Schema> extends Interface
    ? SameKeys<Interface, z.output<Schema>>
    : { schemaOutputDoesNotFit: Interface }

export const agreements: [
  Agrees<Charge, typeof chargeSchema>,
  Agrees<Instrument, typeof instrumentSchema>,
  Agrees<Payment, typeof paymentSchema>,
  Agrees<Refund, typeof refundSchema>,
  Agrees<Reversal, typeof reversalSchema>,
  Agrees<Dispute, typeof disputeSchema>,
  Agrees<Settlement, typeof settlementSchema>,
  Agrees<GenericEvent, typeof eventSchema>,
  Agrees<ChargeTypeInfo, typeof chargeTypeInfoSchema>,
  Agrees<CompactEvent, typeof compactEventSchema>,
  Agrees<DeliveryPayload, typeof deliveryPayloadSchema>,
  Agrees<Pagination, typeof paginationSchema>,
  Agrees<ProcessorErrorBody, typeof processorErrorBodySchema>,
  Agrees<ValidationErrorBody, typeof validationErrorBodySchema>,
  Agrees<ApiErrorBody, typeof apiErrorBodySchema>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true, true]
