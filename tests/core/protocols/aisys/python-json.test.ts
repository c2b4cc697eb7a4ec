/** JSON as Flask's jsonify and Python's json.dumps write it (expected values printed by python3). */
import { describe, expect, it } from 'vitest';
import { flaskJson, pythonJsonDumps, PythonFloat } from '../../../../src/core/protocols/aisys/python-json';

const value = { b: 1, a: 'é\u2013😀\x7f\n', c: [new PythonFloat(1), 2.5, null] };

describe('Python JSON', () => {
  it('writes jsonify bodies: compact, keys sorted, non-ASCII escaped, a newline at the end', () => {
    expect(flaskJson(value)).toBe(
      '{"a":"\\u00e9\\u2013\\ud83d\\ude00\\u007f\\n","b":1,"c":[1.0,2.5,null]}\n',
    );
  });

  it('sorts the keys of nested objects too, as strings', () => {
    expect(flaskJson({ finished_runs: { '9': 1, '10': 0 }, z: { b: true, a: false } })).toBe(
      '{"finished_runs":{"10":0,"9":1},"z":{"a":false,"b":true}}\n',
    );
  });

  it('writes json.dumps: spaces after separators, keys in insertion order, no newline', () => {
    expect(pythonJsonDumps(value)).toBe(
      '{"b": 1, "a": "\\u00e9\\u2013\\ud83d\\ude00\\u007f\\n", "c": [1.0, 2.5, null]}',
    );
    expect(
      pythonJsonDumps({ errorcode: 401, errorname: 'Unauthorized', description: 'wrong password' }),
    ).toBe('{"errorcode": 401, "errorname": "Unauthorized", "description": "wrong password"}');
  });

  it('writes integral numbers as ints and others as Python floats', () => {
    expect(pythonJsonDumps([0, -3, 1e21, 0.1, 1e-7, new PythonFloat(0.6)])).toBe(
      '[0, -3, 1000000000000000000000, 0.1, 1e-07, 0.6]',
    );
  });
});
