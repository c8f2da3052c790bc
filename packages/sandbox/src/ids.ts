import { randomUUID } from 'node:crypto'

/** The id prefix of each object type (`ch_` charge … `ev_` event), plus channels and request ids. */
export type IdPrefix = 'ch' | 'in' | 'pa' | 're' | 'rv' | 'dp' | 'st' | 'ev' | 'chn' | 'req'

/** An opaque id with its type prefix: 122 random bits, so ids are unguessable across accounts. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomUUID().replaceAll('-', '')}`
}
