import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PhraseJsonReader } from '../../../../src/core/transcript/store/phrase-json';

/** Splits `text` at the given cut points into phrases of a fresh book, returning the book and numbers. */
function phrasesOf(text: string, cuts: number[]): { book: string[]; numbers: number[] } {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    pieces.push(text.slice(from, point));
    from = point;
  }
  const book: string[] = [];
  const numbers = pieces.map((piece) => {
    const known = book.indexOf(piece);
    return known >= 0 ? known : book.push(piece) - 1;
  });
  return { book, numbers };
}

/** Same value, same key order, own `__proto__` keys included. */
function expectSameJson(actual: unknown, expected: unknown): void {
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
  expect(actual).toEqual(expected);
}

const key = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.constantFrom('__proto__', 'x', '0', '10', 'constructor'),
);
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
    ),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((entries) => {
      const object: Record<string, unknown> = {};
      for (const [name, value] of entries)
        Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
      return object;
    }),
  ),
})).value;
/** JSON texts, with whitespace now and then as another writer might put it. */
const texts = fc
  .tuple(json, fc.constantFrom(undefined, 1, 2))
  .map(([value, indent]) => JSON.stringify(value, null, indent));

describe('PhraseJsonReader', () => {
  it('parses any JSON text cut anywhere into phrases as JSON.parse does', () => {
    fc.assert(
      fc.property(texts, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        const { book, numbers } = phrasesOf(text, cuts);
        const reader = new PhraseJsonReader(book);
        expectSameJson(reader.parse(numbers), JSON.parse(text));
        // A second time from its reading of the phrases, and the results share nothing.
        const again = reader.parse(numbers);
        expectSameJson(again, JSON.parse(text));
        if (typeof again === 'object' && again !== null) expect(again).not.toBe(reader.parse(numbers));
      }),
      { numRuns: 500 },
    );
  });

  it('throws what JSON.parse throws for texts that are not JSON', () => {
    for (const [text, cuts] of [
      ['{"a":1,}', [3, 6]],
      ['[1 2]', [2]],
      ['{"a" 1}', [4]],
      ['', []],
      ['{"a":[1,2}', [5]],
      ['[true]false', [6]],
    ] as const) {
      const { book, numbers } = phrasesOf(text, [...cuts]);
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
      expect(() => new PhraseJsonReader(book).parse(numbers), text).toThrow(SyntaxError);
    }
  });

  it('reads phrases whose numbers or words touch as the one token they make', () => {
    expect(new PhraseJsonReader(['1', '2']).parse([0, 1])).toBe(12);
    expect(new PhraseJsonReader(['[1', 'e3]']).parse([0, 1])).toEqual([1000]);
    expect(new PhraseJsonReader(['["a', 'b"]']).parse([0, 1])).toEqual(['ab']);
  });

  it('gives every parse its own copies of values parsed from one phrase', () => {
    const book = ['[', '{"x":1,"y":[2]}', ',', ']'];
    const reader = new PhraseJsonReader(book);
    const list = reader.parse([0, 1, 2, 1, 3]) as { y: number[] }[];
    expect(list).toEqual([
      { x: 1, y: [2] },
      { x: 1, y: [2] },
    ]);
    list[0]!.y.push(3);
    expect(list[1]!.y).toEqual([2]);
    expect((reader.parse([0, 1, 3]) as { y: number[] }[])[0]!.y).toEqual([2]);
  });

  it('reads a phrase again after being told the book changed from there', () => {
    const book = ['[', '1', ']'];
    const reader = new PhraseJsonReader(book);
    expect(reader.parse([0, 1, 2])).toEqual([1]);
    book[1] = '"one"';
    reader.forget(1);
    expect(reader.parse([0, 1, 2])).toEqual(['one']);
  });
});
