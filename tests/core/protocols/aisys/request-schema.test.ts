/**
 * Request bodies read as the real server's pydantic models read them: every expected message below was
 * produced by pydantic 2.13 with the server's models.
 */
import { describe, expect, it } from 'vitest';
import {
  describeSchemaProblem,
  readMakeEnvBody,
  readRequestBody,
  readVersionedBody,
} from '../../../../src/core/protocols/aisys/request-schema';
import type { AisysRequest, JsonValue } from '../../../../src/core/protocols/aisys/messages';

/** The server's 400 description for a body, or the request it reads. */
function read(body: JsonValue, version: 0 | 1 = 1) {
  const reading = readVersionedBody(body, version);
  return reading.ok ? reading.value : describeSchemaProblem(reading.loc, reading.msg);
}

const action = (fields: Record<string, JsonValue>) => ({ agent: 'a', pwd: 'p', actions: [fields] });

describe('request schema', () => {
  it('fills in the defaults and ignores unknown fields', () => {
    expect(read({ agent: 'a', pwd: 'p', single_request: true, foo: 1 })).toEqual({
      agent: 'a',
      pwd: 'p',
      actions: [],
      parallel_runs: true,
      to_abandon: [],
      client: '',
    });
  });

  it.each<[JsonValue, number]>([
    ['3', 3],
    [' 3.0 ', 3],
    ['1_000.0', 1000],
    ['-0', 0],
    ['+0', 0],
    ['00', 0],
    ['3.00', 3],
    [true, 1],
    [false, 0],
    [3.0, 3],
    [-0, 0],
  ])('reads act_no %j as %d', (actNo, value) => {
    expect(read(action({ run: '1', act_no: actNo, action: 1 }))).toMatchObject({
      actions: [{ act_no: value }],
    });
  });

  it.each<[JsonValue, string]>([
    ['abc', 'Input should be a valid integer, unable to parse string as an integer'],
    ['3.5', 'Input should be a valid integer, unable to parse string as an integer'],
    ['1e3', 'Input should be a valid integer, unable to parse string as an integer'],
    ['3.', 'Input should be a valid integer, unable to parse string as an integer'],
    ['.0', 'Input should be a valid integer, unable to parse string as an integer'],
    ['1__0', 'Input should be a valid integer, unable to parse string as an integer'],
    ['0x10', 'Input should be a valid integer, unable to parse string as an integer'],
    ['', 'Input should be a valid integer, unable to parse string as an integer'],
    [0.5, 'Input should be a valid integer, got a number with a fractional part'],
    [null, 'Input should be a valid integer'],
    [[1], 'Input should be a valid integer'],
  ])('refuses act_no %j', (actNo, message) => {
    expect(read(action({ run: '1', act_no: actNo, action: 1 }))).toBe(
      `Malformed request body in field ('actions', 0, 'act_no'): '${message}'`,
    );
  });

  it.each<[JsonValue, boolean | string]>([
    ['yes', true],
    ['YES', true],
    ['True', true],
    ['t', true],
    ['on', true],
    ['N', false],
    ['OFF', false],
    ['0', false],
    [1, true],
    [0, false],
    [1.0, true],
    [0.0, false],
    ['maybe', 'Input should be a valid boolean, unable to interpret input'],
    [' true ', 'Input should be a valid boolean, unable to interpret input'],
    ['1.0', 'Input should be a valid boolean, unable to interpret input'],
    ['', 'Input should be a valid boolean, unable to interpret input'],
    [2, 'Input should be a valid boolean, unable to interpret input'],
    [-1, 'Input should be a valid boolean, unable to interpret input'],
    [1.5, 'Input should be a valid boolean'],
    [null, 'Input should be a valid boolean'],
    [[], 'Input should be a valid boolean'],
  ])('reads parallel_runs %j', (value, expected) => {
    const result = read({ agent: 'a', pwd: 'p', parallel_runs: value });
    if (typeof expected === 'boolean') expect(result).toMatchObject({ parallel_runs: expected });
    else expect(result).toBe(`Malformed request body in field ('parallel_runs',): '${expected}'`);
  });

  it('reads a body as clients write it as it reads a body it must read field by field', () => {
    // `parallel_runs: "true"` reads as true but only field by field: the two readings must be the same.
    const bodies: Record<string, JsonValue>[] = [
      { agent: 'a', pwd: 'p', parallel_runs: true },
      {
        protocol_version: 1,
        agent: 'ann',
        pwd: 'x',
        actions: [
          { run: '3', act_no: 2, action: { move: [1, 2] }, extra: null },
          { action: null, run: '04', act_no: -0 },
        ],
        to_abandon: ['7'],
        parallel_runs: true,
        client: 'py',
      },
      { agent: '', pwd: '', actions: [], to_abandon: [], parallel_runs: true },
    ];
    for (const body of bodies) {
      const plain = readRequestBody(body);
      const fieldByField = readRequestBody({ ...body, parallel_runs: 'true' });
      expect(plain).toEqual(fieldByField);
      expect(JSON.stringify(plain)).toBe(JSON.stringify(fieldByField));
    }
    expect(
      Object.is((readRequestBody(bodies[1]!) as { value: AisysRequest }).value.actions[1]!.act_no, 0),
    ).toBe(true);
  });

  it('reports the first problem in field order, items in list order', () => {
    expect(read({ agent: 5, pwd: 5 })).toBe(
      "Malformed request body in field ('agent',): 'Input should be a valid string'",
    );
    expect(read({ pwd: 5 })).toBe("Malformed request body in field ('agent',): 'Field required'");
    expect(read(action({ act_no: 'x' }))).toBe(
      "Malformed request body in field ('actions', 0, 'action'): 'Field required'",
    );
    expect(read(action({ run: null, act_no: 1, action: 1 }))).toBe(
      "Malformed request body in field ('actions', 0, 'run'): 'Input should be a valid string'",
    );
    expect(read({ agent: 'a', pwd: 'p', actions: [5] })).toBe(
      "Malformed request body in field ('actions', 0): 'Input should be a valid dictionary or instance of ActionV1'",
    );
    expect(read({ agent: 'a', pwd: 'p', actions: { a: 1 } })).toBe(
      "Malformed request body in field ('actions',): 'Input should be a valid list'",
    );
    expect(read({ agent: 'a', pwd: 'p', to_abandon: ['1', null] })).toBe(
      "Malformed request body in field ('to_abandon', 1): 'Input should be a valid string'",
    );
    expect(read({ agent: 'a', pwd: 'p', client: null })).toBe(
      "Malformed request body in field ('client',): 'Input should be a valid string'",
    );
    expect(read('hello')).toBe(
      "Malformed request body in field (): 'Input should be a valid dictionary or instance of RequestV1'",
    );
  });

  it('reads version 0 bodies, run ids "<run>#<number>", and upgrades them', () => {
    expect(
      read({ agent: 'a', pwd: 'p', actions: [{ run: '12#3', action: 1 }], single_request: true }, 0),
    ).toEqual({
      agent: 'a',
      pwd: 'p',
      actions: [{ run: '12', act_no: 3, action: 1 }],
      parallel_runs: false,
      to_abandon: [],
      client: '',
    });
    expect(read({ agent: 'a', pwd: 'p', actions: [{ run: '12', action: 1 }] }, 0)).toBe(
      "Malformed request body in field ('actions', 0, 'run'): 'Assertion failed, '",
    );
    expect(read({ agent: 'a', pwd: 'p', actions: [{ run: '12#1' }] }, 0)).toBe(
      "Malformed request body in field ('actions', 0, 'action'): 'Field required'",
    );
    expect(read([1], 0)).toBe(
      "Malformed request body in field (): 'Input should be a valid dictionary or instance of RequestV0'",
    );
  });

  it('reads the makeenv body', () => {
    expect(readRequestBody({ agent: 'a', pwd: 'p' }).ok).toBe(true);
    const reading = readMakeEnvBody({ env_class: 'nim', display_name: 'Nim' });
    expect(reading.ok ? 'read' : describeSchemaProblem(reading.loc, reading.msg)).toBe(
      "Malformed request body in field ('config',): 'Field required'",
    );
    expect(
      readMakeEnvBody({ env_class: 'nim', display_name: 'Nim', config: {}, overwrite: 'yes' }),
    ).toMatchObject({
      ok: true,
      value: { overwrite: true, display_group: '' },
    });
  });
});
