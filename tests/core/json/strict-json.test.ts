import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from '../../../src/core/json/strict-json';
import { decodeServerFrame } from '../../../src/core/protocols/massim/codec';

describe('findJsonSyntaxError', () => {
  it('finds nothing wrong in what JSON.parse accepts', () => {
    for (const text of ['{}', ' [1, -2.5e3, "a\\u00e9\\n", true, null] ', '{"a":{"b":[]}}', '0'])
      expect({ text, problem: findJsonSyntaxError(text) }).toEqual({ text, problem: undefined });
  });

  it.each([
    ['{"a":1,}', 7, /expected a "quoted" key/],
    ["{'a':1}", 1, /expected a "quoted" key/],
    ['{"a" 1}', 5, /expected ':'/],
    ['{"a":[1 2]}', 8, /expected ',' or '\]'/],
    ['{"a":tru}', 5, /expected a value/],
    ['{"a":"x', 5, /unterminated string/],
    ['{"a":"\\q"}', 6, /invalid escape/],
    ['{"a":01}', 6, /expected ',' or '}'/],
    ['{"a":1} x', 8, /after the JSON value/],
    ['', 0, /expected a value, got end of text/],
  ])('locates the error in %j', (text, offset, message) => {
    expect(JSON.parse.bind(null, text)).toThrow();
    const problem = findJsonSyntaxError(text)!;
    expect(problem.offset).toBe(offset);
    expect(problem.message).toMatch(message);
  });
});

describe('decodeServerFrame', () => {
  it('reports a located JSON error in a server frame', () => {
    const decoded = decodeServerFrame('{"type":"bye",\n "content":{]}', 'frame 4');
    expect(decoded).toMatchObject({
      ok: false,
      problem: { expected: 'a JSON object', location: { source: 'frame 4', line: 2, column: 13 } },
    });
  });

  it('accepts well-formed server messages and names a wrong field', () => {
    expect(decodeServerFrame('{"type":"bye","content":{}}')).toEqual({
      ok: true,
      message: { type: 'bye', content: {} },
    });
    expect(decodeServerFrame('{"type":"sim-end","content":{"score":1,"ranking":0,"time":5}}')).toMatchObject({
      ok: false,
      problem: { expected: 'content.ranking (positive) in sim-end', got: '0' },
    });
    expect(decodeServerFrame('{"type":"action","content":{}}')).toMatchObject({
      ok: false,
      problem: { got: '"action", which only agents send' },
    });
    expect(decodeServerFrame('[1]')).toMatchObject({
      ok: false,
      problem: { expected: '{"type": <string>, "content": <object>}' },
    });
  });
});
