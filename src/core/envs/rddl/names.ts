/**
 * How RDDL names compare. rddlsim canonicalises pvariable names (lower case, `-` read as `_`), so `REBOOT`,
 * `reboot` and `Re-Boot`... all name the same fluent, while type, object and enum names compare exactly.
 */

/** The canonical form of a pvariable name: `REBOOT-PROB` -> `reboot_prob`. */
export function canonicalFluentName(name: string): string {
  return name.replace(/-/g, '_').toLowerCase();
}

/** Levenshtein distance, for "did you mean" hints (names are short, so the quadratic cost is fine). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The closest candidate to `name` (case-insensitively), if close enough to be a likely typo. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const wanted = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(wanted.length / 3)) ? best : undefined;
}

/** " (did you mean X?)" or "". */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const suggestion = closestName(name, candidates);
  return suggestion ? ` (did you mean ${suggestion}?)` : '';
}
