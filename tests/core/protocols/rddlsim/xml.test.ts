import { describe, expect, it } from 'vitest';
import { ProtoplayError } from '../../../../src/core/errors';
import {
  childElements,
  descendantElements,
  firstChildValue,
  firstDescendant,
  parseXml,
  textContent,
} from '../../../../src/core/protocols/rddlsim/xml';

describe('parseXml', () => {
  it('builds the tree and notes the declaration', () => {
    const { root, declaration } = parseXml('<?xml version="1.0"?>\n<a x="1"><b>t</b><c/></a>');
    expect(declaration).toBe(true);
    expect(root.name).toBe('a');
    expect(root.attributes).toEqual({ x: '1' });
    expect(childElements(root, 'b').map(textContent)).toEqual(['t']);
    expect(parseXml('  <a/>  ').declaration).toBe(false);
  });

  it('keeps character data as the DOM does: entities resolved, CDATA and comments as their own nodes', () => {
    const { root } = parseXml('<a>x&amp;y&lt;<![CDATA[<z>]]><!--c--></a>');
    expect(root.children).toEqual([
      { kind: 'text', value: 'x&y<' },
      { kind: 'cdata', value: '<z>' },
      { kind: 'comment', value: 'c' },
    ]);
  });

  it('rejects what xerces rejects, located: whitespace before the declaration, two roots, no root', () => {
    const cases: [string, RegExp, number][] = [
      ['\n<?xml version="1.0"?>\n<a/>', /declaration/, 2],
      ['<a/><b/>', /one root/, 1],
      ['', /root element/, 1],
      ['<a>&nbsp;</a>', /entity/, 1],
    ];
    for (const [text, words, line] of cases) {
      try {
        parseXml(text, 'message 3');
        expect.unreachable(text);
      } catch (error) {
        expect(error).toBeInstanceOf(ProtoplayError);
        expect((error as ProtoplayError).message).toMatch(words);
        expect((error as ProtoplayError).location).toMatchObject({ source: 'message 3', line });
      }
    }
  });

  it('can be used again after a failure', () => {
    expect(() => parseXml('<a>')).toThrow();
    expect(parseXml('<b/>').root.name).toBe('b');
  });

  // Found by fuzzing: saxes itself threw a RangeError on a lone surrogate after a declaration's start.
  it('reports a lone UTF-16 surrogate as located malformed XML, and parses on afterwards', () => {
    let caught: unknown;
    try {
      parseXml('<?xml\u{1D333}\n\ud81b', 'message 4');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ProtoplayError);
    expect((caught as ProtoplayError).format()).toBe(
      'message 4:2:1: malformed XML: U+D81B is half of a UTF-16 surrogate pair, not a character',
    );
    expect(parseXml('<c/>').root.name).toBe('c');
  });
});

describe('field lookup as the real server does it', () => {
  const { root } = parseXml(
    '<r><v>1</v><g><v>2</v><w><v/></w></g><e><x/></e><c><![CDATA[cd]]></c><m><!--note--></m></r>',
  );

  it('finds elements at any depth in document order', () => {
    expect(descendantElements(root, 'v').map(firstChildValue)).toEqual(['1', '2', undefined]);
    expect(firstDescendant(root, 'w')?.name).toBe('w');
    expect(firstDescendant(root, 'nothing')).toBeUndefined();
  });

  it('reads the first child node: text or CDATA or comment value, null for an element, undefined for none', () => {
    expect(firstChildValue(firstDescendant(root, 'c')!)).toBe('cd');
    expect(firstChildValue(firstDescendant(root, 'm')!)).toBe('note');
    expect(firstChildValue(firstDescendant(root, 'e')!)).toBeNull();
    expect(firstChildValue(firstDescendant(root, 'x')!)).toBeUndefined();
  });
});
