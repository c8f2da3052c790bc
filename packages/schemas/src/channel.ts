import * as z from 'zod'

/**
 * A processing channel. Its label is the charge type, an underscore and the processor's
 * channel name: `card_onetime` + `no_processor` gives `card_onetime_no_processor`.
 */
export const channelSchema = z.looseObject({
  id: z.string(),
  label: z.string(),
  processor: z.string(),
})

export type Channel = z.infer<typeof channelSchema>
