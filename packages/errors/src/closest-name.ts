/**
 * The candidate a name most likely misspells, for "did you mean …?" in error messages; undefined
 * when none is close. In order: the same name up to case, `_`, `-` and spaces (`redirectUrl` →
 * `redirect_url`), a name it begins (`timeout` → `timeoutMs`), or one a few edits away
 * (`captured_on_creaton`; at most a third of its letters, and never more than 3).
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  // An edit distance is quadratic: a long name is no typo of a field name anyway.
  if (name.length > 64) return undefined
  const squashed = squash(name)
  if (squashed === '') return undefined
  const names = [...candidates]
  const same = names.find((candidate) => squash(candidate) === squashed)
  if (same !== undefined) return same
  const begun =
    squashed.length >= 3 && names.find((candidate) => squash(candidate).startsWith(squashed))
  if (begun) return begun
  let best: string | undefined
  let bestDistance = Math.min(3, Math.max(1, Math.floor(squashed.length / 3))) + 1
  for (const candidate of names) {
    const distance = editDistance(squashed, squash(candidate))
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return best
}

function squash(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '')
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution)
    }
    previous = current
  }
  return previous[b.length] ?? 0
}
