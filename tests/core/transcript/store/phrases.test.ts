import { describe, expect, it } from 'vitest';
import { PhraseBook, PhraseList } from '../../../../src/core/transcript/store/phrases';

describe('PhraseBook', () => {
  it('numbers texts in the order first seen, the same number for the same text', () => {
    const book = new PhraseBook();
    expect(['a', 'bc', 'a', '', 'bc'].map((text) => book.intern(text))).toEqual([0, 1, 0, 2, 1]);
    expect(book.size).toBe(3);
    expect(book.characters).toBe(3);
    expect(book.text(1)).toBe('bc');
    expect(() => book.text(3)).toThrow(RangeError);
  });
});

describe('PhraseList', () => {
  it('joins the texts of the phrases pushed since the last clear, growing as needed', () => {
    const list = new PhraseList();
    const pieces = Array.from({ length: 1000 }, (_, i) => `<${i % 7}>`);
    for (const piece of pieces) list.push(list.book.intern(piece));
    expect(list.length).toBe(1000);
    expect(list.text()).toBe(pieces.join(''));
    expect(Array.from(list.phrases.subarray(0, 8))).toEqual([0, 1, 2, 3, 4, 5, 6, 0]);
    list.clear();
    list.push(list.book.intern('x'));
    expect(list.text()).toBe('x');
  });
});
