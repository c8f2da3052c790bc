import fc from 'fast-check'
import { chooseSeed } from './property-seed.ts'

// The root config resolved FC_SEED to a number before any worker started: every file of the
// run shares that one seed.
fc.configureGlobal({ seed: chooseSeed(process.env.FC_SEED) })
