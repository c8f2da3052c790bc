import { readFileSync } from 'node:fs'
import { listenBriefly } from '../packages/sandbox/src/port-in-use'

/**
 * The lowest port the system hands out for `listen(0)` and outgoing connections (Linux reads it
 * from ip_local_port_range; elsewhere the IANA range starts at 49152).
 */
function ephemeralPortsStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)
    const start = Number(low)
    if (Number.isInteger(start)) return start
  } catch {}
  return 49_152
}

const ephemeral = ephemeralPortsStart()
// A system that hands out nearly every port leaves none out of its reach: any free one will do.
const [lowest, highest] = ephemeral > 20_000 ? [20_000, ephemeral - 1] : [1_024, 65_535]
const attempts = 50
/** Ports this process already handed out, so two callers never share one. */
const handedOut = new Set<number>()

/**
 * A TCP port nothing listens on at 127.0.0.1, for a server that cannot listen on port 0 or for a
 * connection meant to be refused. It is picked below the ephemeral range: a port `listen(0)`
 * returned and closed again can be handed to the next server of a parallel test before its caller
 * uses it, which made a "nothing listens here" test meet another test's HTTP server.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const port = lowest + Math.floor(Math.random() * (highest - lowest + 1))
    if (handedOut.has(port) || (await listenBriefly('127.0.0.1', port)) === undefined) continue
    handedOut.add(port)
    return port
  }
  throw new Error(`no free port between ${lowest} and ${highest} in ${attempts} tries`)
}
