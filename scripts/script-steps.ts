/**
 * The scripts of package.json that `name` runs, in order: a script that only chains other scripts
 * (`pnpm lint && pnpm typecheck && …`) is its parts, each expanded the same way; any other script
 * is a step of its own. `verify`'s steps are then the list in package.json, never a second one.
 */
export function scriptSteps(scripts: Readonly<Record<string, string>>, name: string): string[] {
  const body = scripts[name]
  if (body === undefined) throw new Error(`package.json has no script "${name}"`)
  const called = body.split('&&').map((part) => /^pnpm (?:run )?([\w:-]+)$/.exec(part.trim())?.[1])
  if (called.some((script) => script === undefined || !Object.hasOwn(scripts, script))) {
    return [name]
  }
  return (called as string[]).flatMap((script) => scriptSteps(scripts, script))
}
