import { describe, expect, it } from 'vitest';
import { keepLastTranscript } from '../../src/storage/transcript-storage';

// Node has no IndexedDB: every store fails here, as a browser's does when storage is refused.
describe('keepLastTranscript', () => {
  it('says why a transcript larger than the limit is not kept', async () => {
    const json = new Blob(['x'.repeat(3 * 1024 * 1024)]);
    expect(await keepLastTranscript(json, 2 * 1024 * 1024)).toBe(
      'at 3.0 MB it is larger than the 2 MB the page keeps',
    );
  });

  it('says why when the browser refuses to store it', async () => {
    const reason = await keepLastTranscript(new Blob(['{}']));
    expect(reason).toMatch(/^the browser could not store it \(.+\)$/);
  });
});
