/**
 * The iteration order of a `java.util.HashMap`. Results an agent can observe depend on it in the real
 * server: which role an Adopt norm restricts (the first role in use, in this order), which of two teams with
 * equal scores ranks first, and which of two overlapping goal zones moves after a submission.
 */

/** Java's `String.hashCode`. */
export function javaStringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(31, hash) + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * The keys in the order a HashMap of default capacity iterates them after inserting them in the given
 * order: by bucket, and by insertion within a bucket (Java keeps that order when it resizes).
 */
export function javaHashMapOrder(keys: readonly string[]): string[] {
  return javaHashOrder(keys, javaStringHash);
}

/** Java's `Objects.hash(x, y)`, the hash code of the server's grid positions. */
export function javaPositionHash(x: number, y: number): number {
  return (Math.imul(31, 31 + x) + y) | 0;
}

/** `javaHashMapOrder` for keys of any type with their Java hash codes. */
export function javaHashOrder<T>(keys: readonly T[], hashOf: (key: T) => number): T[] {
  let capacity = 16;
  while (keys.length > capacity * 0.75) capacity *= 2;
  const bucketOf = (key: T) => {
    const hash = hashOf(key);
    return (hash ^ (hash >>> 16)) & (capacity - 1);
  };
  return keys
    .map((key, insertion) => ({ key, insertion, bucket: bucketOf(key) }))
    .sort((a, b) => a.bucket - b.bucket || a.insertion - b.insertion)
    .map(({ key }) => key);
}
