/** Marks the error classes of every chargekit package, in every build and copy of it. */
const chargekitErrorClass = Symbol.for('chargekit.errorClass')

/**
 * The base of every error a chargekit package throws, so `catch (e) { if (e instanceof
 * ChargekitError) … }` separates ours from bugs in the caller's code.
 *
 * `instanceof` works across copies of a package: an app that loads both the ESM and the
 * CommonJS build (one through `import`, one through a dependency's `require`), or two
 * versions, has two classes of each name; an error thrown by one is still `instanceof` the
 * other's class of the same name. Subclasses name themselves with `name`, which is also what
 * this comparison uses.
 */
export class ChargekitError extends Error {
  static readonly [chargekitErrorClass] = true

  override name = 'ChargekitError'

  static override [Symbol.hasInstance](instance: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class right of `instanceof`, often a subclass
    return isInstance(this, instance)
  }
}

/** Whether `instance` is of class `target`, or of another copy's class of the same name. */
function isInstance(target: { name: string }, instance: unknown): boolean {
  if (Function.prototype[Symbol.hasInstance].call(target, instance)) return true
  if (typeof instance !== 'object' || instance === null) return false
  for (
    let prototype: unknown = Object.getPrototypeOf(instance);
    prototype !== null;
    prototype = Object.getPrototypeOf(prototype)
  ) {
    const owner = (prototype as { constructor?: unknown }).constructor as
      | { [chargekitErrorClass]?: boolean; name?: string }
      | undefined
    if (owner?.[chargekitErrorClass] === true && owner.name === target.name) return true
  }
  return false
}
