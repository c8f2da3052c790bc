import type { Channel } from '@chargekit/schemas'
import type { Account } from '../accounts/accounts'
import { invalidParameters } from '../api-problem'

type Problems = Record<string, string[]>

/**
 * The problems of a POST /v2/charges body that depend on the account: a charge type it has no
 * channel for, channels it lacks or that serve another charge type. Given the raw body, so that
 * they are reported in the same 400 as the schema's problems; fields of the wrong type are left
 * to the schema.
 */
export function chargeChannelProblems(account: Account, fields: Record<string, unknown>): Problems {
  const chargeType =
    typeof fields.charge_type === 'string' && fields.charge_type !== ''
      ? fields.charge_type
      : undefined
  const labels = Array.isArray(fields.channels) ? (fields.channels as unknown[]) : undefined
  return chooseChannels(account, chargeType, labels).problems
}

/** The channels a charge uses: those it names, else the account's default for its type (400 on a bad one). */
export function resolveChannels(
  account: Account,
  chargeType: string,
  labels: readonly string[] | undefined,
): Channel[] {
  const { channels, problems } = chooseChannels(account, chargeType, labels)
  if (Object.keys(problems).length > 0) throw invalidParameters(problems)
  return channels
}

/**
 * A label fits a charge when it is one of the account's channels for the charge's type (the
 * channel's own charge type, not a prefix of its label). Non-string labels are skipped.
 */
function chooseChannels(
  account: Account,
  chargeType: string | undefined,
  labels: readonly unknown[] | undefined,
): { channels: Channel[]; problems: Problems } {
  const problems: Problems = {}
  const ofType = chargeType === undefined ? [] : account.channelsFor(chargeType)
  if (chargeType !== undefined && ofType.length === 0) {
    problems.charge_type = [
      `Expected one of this account's charge types: ${account.chargeTypes.join(', ')}`,
    ]
  }
  if (labels === undefined || labels.length === 0) {
    return { channels: ofType.slice(0, 1), problems }
  }
  const expected = (ofType.length > 0 ? ofType : account.channels)
    .map((channel) => channel.label)
    .join(', ')
  const channels: Channel[] = []
  labels.forEach((label, index) => {
    if (typeof label !== 'string') return
    const channel = ofType.find((candidate) => candidate.label === label)
    if (channel !== undefined) {
      if (!channels.includes(channel)) channels.push(channel)
      return
    }
    const serves = account.chargeTypeOf(label)
    if (serves === undefined) {
      problems[`channels.${index}`] = [`Unknown channel: expected one of ${expected}`]
    } else if (chargeType !== undefined) {
      problems[`channels.${index}`] = [
        `Channel ${label} serves charge type ${serves}, not ${chargeType}: expected one of ${expected}`,
      ]
    }
  })
  return { channels, problems }
}
