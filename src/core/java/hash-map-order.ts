/**
 * The iteration order of a `java.util.HashMap` (OpenJDK 8 and later). Both real servers Protoplay emulates
 * are Java programs whose observable output follows it: rddlsim lists fluents by iterating HashMaps keyed by
 * fluent names; MASSim lists roles and actions, picks the role an Adopt norm restricts, ranks teams with
 * equal scores and moves goal zones in that order. One implementation serves both.
 *
 * The rules that decide the order: a key's bucket is `spread(hashCode) & (capacity - 1)` with
 * `spread(h) = h ^ (h >>> 16)`; the table starts at 16 buckets and doubles when the size exceeds 3/4 of the
 * capacity, and also when a bucket grows past 8 entries while the table has fewer than 64 buckets; inside a
 * bucket, entries keep their insertion order (appending, and splitting on resize, both preserve it).
 * Iteration walks buckets in index order. A bucket that grows past 8 entries in a table of 64 or more is
 * turned into a red-black tree in Java, which reorders it; that needs ~8 colliding names in one table and is
 * not reproduced (the order then falls back to insertion order within that bucket).
 */

/** `String.hashCode()`: s[0]*31^(n-1) + ... + s[n-1] in 32-bit arithmetic, over UTF-16 code units. */
export function javaStringHashCode(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(31, hash) + text.charCodeAt(i)) | 0;
  return hash;
}

/** HashMap's hash spreading: the high half is folded into the low half before masking. */
function spread(hash: number): number {
  return hash ^ (hash >>> 16);
}

const INITIAL_CAPACITY = 16;
const LOAD_FACTOR = 0.75;
const TREEIFY_THRESHOLD = 8;
const MIN_TREEIFY_CAPACITY = 64;

/**
 * Simulates inserting `keys` (with their Java `hashCode()` values, in insertion order) into a new
 * `HashMap` and returns the keys in the map's iteration order. Keys are distinct (later duplicates are
 * ignored, as `put` of an existing key keeps its place).
 */
export function javaHashMapOrder<K>(entries: readonly { key: K; hashCode: number }[]): K[] {
  return javaHashMapLayout(entries).keys;
}

/**
 * `javaHashMapOrder` for a map whose table already has `capacity` buckets: a `HashMap` or `HashSet` that
 * was filled and then `clear()`ed keeps its table, so what is put in afterwards is ordered by the larger
 * table. Returns the iteration order and the capacity the table has afterwards.
 */
export function javaHashMapLayout<K>(
  entries: readonly { key: K; hashCode: number }[],
  initialCapacity = INITIAL_CAPACITY,
): { keys: K[]; capacity: number } {
  let capacity = initialCapacity;
  let buckets = new Map<number, { key: K; hash: number; order: number }[]>();
  let size = 0;
  const seen = new Set<K>();
  const rehash = (newCapacity: number) => {
    const next = new Map<number, { key: K; hash: number; order: number }[]>();
    for (const bucket of buckets.values()) {
      for (const entry of bucket) {
        const index = entry.hash & (newCapacity - 1);
        let target = next.get(index);
        if (!target) next.set(index, (target = []));
        target.push(entry);
      }
    }
    // Entries of each new bucket come from a single old bucket, in their old relative order.
    for (const bucket of next.values()) bucket.sort((a, b) => a.order - b.order);
    buckets = next;
    capacity = newCapacity;
  };
  entries.forEach(({ key, hashCode }, order) => {
    if (seen.has(key)) return;
    seen.add(key);
    const hash = spread(hashCode);
    const index = hash & (capacity - 1);
    let bucket = buckets.get(index);
    if (!bucket) buckets.set(index, (bucket = []));
    bucket.push({ key, hash, order });
    if (bucket.length > TREEIFY_THRESHOLD && capacity < MIN_TREEIFY_CAPACITY) rehash(capacity * 2);
    size++;
    if (size > capacity * LOAD_FACTOR) rehash(capacity * 2);
  });
  const keys = [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([, bucket]) => bucket.map((e) => e.key));
  return { keys, capacity };
}

/** `Objects.hash(x, y)`: the hash code of a grid position (MASSim's `Position`). */
export function javaPositionHash(x: number, y: number): number {
  return (Math.imul(31, 31 + x) + y) | 0;
}

/** `javaHashMapOrder` for keys of any type, given how Java hashes them. */
export function javaHashOrder<T>(keys: readonly T[], hashOf: (key: T) => number): T[] {
  return javaHashMapOrder(keys.map((key) => ({ key, hashCode: hashOf(key) })));
}

/** `javaHashMapOrder` for string keys (`HashMap<String, ...>`). */
export function javaStringKeyOrder(keys: readonly string[]): string[] {
  return javaHashOrder(keys, javaStringHashCode);
}
