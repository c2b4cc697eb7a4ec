import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keepLastTranscript, utf8Length } from '../../src/storage/transcript-storage';

// Node has no IndexedDB: every store fails here, as a browser's does when storage is refused.
describe('keepLastTranscript', () => {
  it('says why a transcript larger than the limit is not kept', async () => {
    const json = new Blob(['x'.repeat(3 * 1024 * 1024)]);
    expect(await keepLastTranscript(json, 2 * 1024 * 1024)).toBe(
      'at 3.0 MB it is larger than the 2 MB the page keeps',
    );
  });

  it('takes the size of a transcript measured elsewhere as too large, and refuses to store a size alone', async () => {
    expect(await keepLastTranscript({ bytes: 3 * 1024 * 1024 }, 2 * 1024 * 1024)).toBe(
      'at 3.0 MB it is larger than the 2 MB the page keeps',
    );
    await expect(keepLastTranscript({ bytes: 1024 }, 2 * 1024 * 1024)).rejects.toThrow('nothing to store');
  });

  it('says why when the browser refuses to store it', async () => {
    const reason = await keepLastTranscript(new Blob(['{}']));
    expect(reason).toMatch(/^the browser could not store it \(.+\)$/);
  });
});

describe('utf8Length', () => {
  it('is the size of the Blob the texts make, lone surrogates and pairs cut between texts included', () => {
    const unit = fc.constantFrom(
      'a',
      'é',
      '€',
      '😀',
      '\ud800',
      '\udc00',
      '\u007f',
      '\u0080',
      '\u07ff',
      '\u0800',
    );
    fc.assert(
      fc.property(fc.array(fc.string({ unit, maxLength: 20 }), { maxLength: 6 }), (texts) => {
        expect(utf8Length(texts)).toBe(new Blob(texts).size);
      }),
      { numRuns: 500 },
    );
  });
});
