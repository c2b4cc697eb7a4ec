/** Counts with thousands separators; one formatter for every count on screen (creating one is slow). */
const counts = new Intl.NumberFormat('en-US');

/** `12,345` */
export function formatCount(n: number): string {
  return counts.format(n);
}
