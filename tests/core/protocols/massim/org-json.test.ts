import { describe, expect, it } from 'vitest';
import { javaOptLong, javaString, parseOrgJson } from '../../../../src/core/protocols/massim/org-json';
import { readClientFrame } from '../../../../src/core/protocols/massim/codec';
import { orgJsonCases } from './org-json.cases';

describe('parseOrgJson', () => {
  it.each(orgJsonCases.map((c) => [c.text, c] as const))('reads %j as org.json does', (_text, expected) => {
    const reading = readClientFrame(expected.text);
    switch (expected.reading) {
      case 'invalid-json':
        expect(reading).toMatchObject({ kind: 'invalid-json', error: { message: expected.error } });
        break;
      case 'action':
        expect(reading).toEqual({
          kind: 'action',
          id: expected.id,
          action: { type: expected.type, p: expected.p },
        });
        break;
      case 'action-without-p':
        expect(reading).toMatchObject({ kind: 'action-without-p', id: expected.id });
        break;
      case 'auth-request':
        expect(reading).toEqual({ kind: 'auth-request', user: expected.user, password: expected.pw });
        break;
      case 'no-content':
        expect(reading).toEqual({ kind: 'no-content', type: expected.messageType });
        break;
      case 'other':
        expect(reading.kind).toMatch(/^(unknown-type|server-message|status-request)$/);
        expect(reading).toMatchObject({ type: expected.messageType });
        break;
    }
  });

  it('locates errors at the offending character', () => {
    const missingColon = parseOrgJson('{"type":"action",\n  "content" {}}', 'frame 3');
    expect(missingColon).toEqual({
      ok: false,
      error: {
        message: "Expected a ':' after a key",
        location: { source: 'frame 3', line: 2, column: 13, offset: 30 },
      },
    });
    const missingValue = parseOrgJson('{"a":}');
    expect(!missingValue.ok && missingValue.error.location.column).toBe(6);
  });

  it('keeps members in order and rejects objects nested beyond what the server thread survives', () => {
    const parsed = parseOrgJson('{"b":1,"a":[true,null,"x"]}');
    expect(parsed.ok && [...parsed.value.keys()]).toEqual(['b', 'a']);
    const deep = '{"a":' + '['.repeat(5000) + ']'.repeat(5000) + '}';
    const result = parseOrgJson(deep);
    expect(!result.ok && result.error.message).toBe('JSON Array or Object depth too large to process.');
  });
});

describe('javaString and javaOptLong', () => {
  it('print nested values as compact JSON with Java number texts', () => {
    const parsed = parseOrgJson('{"v":{"x":[1.50,"q",null,false]}}');
    expect(parsed.ok && javaString(parsed.value.get('v')!)).toBe('{"x":[1.50,"q",null,false]}');
  });

  it('read ids from numbers and numeric strings only', () => {
    const parsed = parseOrgJson('{"a":-3.9,"b":"12","c":"x","d":[1]}');
    if (!parsed.ok) throw new Error('unexpected');
    expect(javaOptLong(parsed.value.get('a'), -1)).toBe(-3);
    expect(javaOptLong(parsed.value.get('b'), -1)).toBe(12);
    expect(javaOptLong(parsed.value.get('c'), -1)).toBe(-1);
    expect(javaOptLong(parsed.value.get('d'), -1)).toBe(-1);
    expect(javaOptLong(undefined, -1)).toBe(-1);
  });
});
