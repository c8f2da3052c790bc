import { ChargekitError } from '@chargekit/errors'

/**
 * The one error class the sandbox throws at its callers: bad options to `startSandbox` or
 * `createMemoryStore`, a misbehaving processor plug-in, a CLI flag it cannot read. The message
 * always says what was expected, so the fix is in the message.
 */
export class SandboxError extends ChargekitError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'SandboxError'
  }
}
