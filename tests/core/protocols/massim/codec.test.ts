import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readClientFrame, readPlainAction } from '../../../../src/core/protocols/massim/codec';

const word = fc.stringMatching(/^\w{0,8}$/);

describe('reading plain actions by pattern', () => {
  it('reads what the org.json reader reads from the same action written with spaces', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 999_999_999_999_999 }),
        fc.stringMatching(/^\w{1,12}$/),
        fc.array(word, { maxLength: 5 }),
        (id, type, p) => {
          const text = JSON.stringify({ type: 'action', content: { id, type, p } });
          const quick = readPlainAction(text);
          expect(quick).toBeDefined();
          // Spaces send the text down the org.json reader, which must agree.
          expect(quick).toEqual(
            readClientFrame(text.replace('{"type"', '{ "type"').replace(',"p"', ', "p"')),
          );
          expect(readClientFrame(text)).toEqual(quick);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leaves everything else to the org.json reader', () => {
    for (const text of [
      '{"type":"action","content":{"id":007,"type":"move","p":["n"]}}',
      '{"type":"action","content":{"id":1234567890123456,"type":"move","p":["n"]}}',
      '{"type":"action","content":{"id":1,"type":"clear","p":[1,2]}}',
      '{"type":"action","content":{"id":1,"type":"move","p":["n\\u0041"]}}',
      '{"type":"action","content":{"id":1,"type":"move","p":["é"]}}',
      '{"type":"action","content":{"id":1,"type":"move"}}',
      '{"type":"action","content":{"id":1,"type":"move","p":["n"]}} ',
      '{"content":{"id":1,"type":"move","p":["n"]},"type":"action"}',
      '{"type":"action","content":{"id":-1,"type":"move","p":["n"]}}',
    ])
      expect(readPlainAction(text), text).toBeUndefined();
  });
});
