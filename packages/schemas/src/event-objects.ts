// Its own entry (`@chargekit/schemas/event-objects`), without zod, so browser code such as the
// sandbox's dashboard can use it without bundling the schemas.

/**
 * The objects a full event carries, each in the field of its name, as they stood when the event
 * happened: the charge, then its transaction's objects in the order they come about.
 */
export const eventObjectKinds = [
  'charge',
  'instrument',
  'payment',
  'refund',
  'reversal',
  'dispute',
  'settlement',
] as const

export type EventObjectKind = (typeof eventObjectKinds)[number]
