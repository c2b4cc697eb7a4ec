/**
 * Why the browser's storage refused a write, in words for the learner. IndexedDB reports a full quota by
 * aborting the transaction with a `QuotaExceededError` (idb-keyval rejects with the transaction's error);
 * the name is checked rather than the class, which differs between a page and its workers' realms.
 */
export function isQuotaExceeded(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'QuotaExceededError';
}

/** One clause: what went wrong with the write (`the browser's storage for this site is full ...`). */
export function describeStorageFailure(error: unknown): string {
  if (isQuotaExceeded(error)) return 'the browser’s storage for this site is full (storage quota exceeded)';
  const detail = error instanceof Error ? error.message : String(error);
  return `the browser could not store it (${detail})`;
}
