// Type-checked inside the throw-away apps (as .cts and .mts), never run: the packed declarations
// must compile against the app's own zod, whichever major it is.
import { createClient } from '@chargekit/client'
import { type Charge, chargeSchema, isEventOfType, parseEvent } from '@chargekit/schemas'
import * as z from 'zod/v4'

export const amount: number = chargeSchema.parse({}).amount
export const schema: z.ZodType<Charge> = chargeSchema

const event = parseEvent({})
export const paymentId: string | undefined = isEventOfType(event, 'payment.success')
  ? event.payment.id
  : undefined

const client = createClient({ baseUrl: 'https://api.chargekit.test' })
export const retrieved: Promise<Charge> = client.charges.retrieve('ch_1')
export const custom: Promise<{ name: string }> = client.request({
  method: 'GET',
  path: '/custom',
  schema: z.object({ name: z.string() }),
})
