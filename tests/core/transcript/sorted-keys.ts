/** A JSON text with every object's keys in alphabetical order, as `jq -S .` writes it. */
export function sortedKeys(text: string): string {
  const sort = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sort)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, sort((value as Record<string, unknown>)[key])]),
          )
        : value;
  return JSON.stringify(sort(JSON.parse(text)), null, 2);
}
