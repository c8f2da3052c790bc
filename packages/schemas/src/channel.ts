import * as z from 'zod/v4'

/**
 * A processing channel. Its label is the charge type, an underscore and the processor's
 * channel name: `card_onetime` + `no_processor` gives `card_onetime_no_processor`.
 */
export const channelSchema = z.looseObject({
  id: z.string(),
  label: z.string(),
  processor: z.string(),
})

/** A processing channel: `{charge_type}_{processor}` and the processor behind it. */
export interface Channel {
  /** The channel's id in the account. */
  id: string
  /** `{charge_type}_{processor}`, as named in a charge request's `channels`. */
  label: string
  /** The processor channel name, such as `no_processor`. */
  processor: string
}
