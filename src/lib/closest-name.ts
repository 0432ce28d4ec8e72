// "Did you mean …?" for a name nobody declared: the known name nearest to it, when it is near
// enough to be the typo it looks like. Case, "_" and "-" are ignored (scheduled_for is
// scheduledFor), and the edit distance allowed grows with the names (a third of the longer one),
// so schedule → scheduledFor is suggested and url → foo is not.

/** Names longer than this are not compared (they are not a typo, and the cost is quadratic). */
const MAX_COMPARED = 64;

const normalized = (name: string) => name.toLowerCase().replace(/[-_]/g, '');

/** Levenshtein distance, one row at a time. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The known name closest to `name`, or null when none is close; on a tie, the first given. */
export function closestName(name: string, known: Iterable<string>): string | null {
  if (name.length > MAX_COMPARED) return null;
  const wanted = normalized(name);
  let best: { name: string; distance: number } | null = null;
  for (const candidate of known) {
    if (candidate === name || candidate.length > MAX_COMPARED) continue;
    const other = normalized(candidate);
    const d = distance(wanted, other);
    if (d > Math.max(1, Math.floor(Math.max(wanted.length, other.length) / 3))) continue;
    if (!best || d < best.distance) best = { name: candidate, distance: d };
  }
  return best?.name ?? null;
}

/** "unknown field (did you mean scheduledFor?)", or just "unknown field" when nothing is close. */
export function unknownNameProblem(what: string, name: string, known: Iterable<string>): string {
  const suggestion = closestName(name, known);
  return suggestion === null ? `unknown ${what}` : `unknown ${what} (did you mean ${suggestion}?)`;
}
