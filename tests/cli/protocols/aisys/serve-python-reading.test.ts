/**
 * `protoplay serve aisys` over real HTTP reads request bodies as the real server does (Flask's
 * `get_json()`, Python's `json.loads`, pydantic): encodings picked from the first bytes, NaN and Infinity,
 * integers of any size, floats that stay floats (also where Nim's messages show an action); and `connect
 * aisys` ends with the rating the server shows and a confidence interval within the outcomes. Every
 * expected answer below is what aisysprojserver 0.1.3 (Flask 3.1, Werkzeug 3.1, pydantic 2.13, Python
 * 3.11) answered to the same bytes.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveAisys, type ServedAisys } from './serve-child';
import { runInProcess } from '../../run-cli';

let served: ServedAisys;
let dir: string;
let url: string;
let config: string;
let pwd: string;
/** A run of the agent that is waiting for its first action (action number 0). */
let run: string;

beforeAll(async () => {
  served = await serveAisys('nim-strong');
  ({ dir, url, config, pwd } = served);
  const first = await put(body(''));
  run = (JSON.parse(first.text) as { action_requests: { run: string }[] }).action_requests[0]!.run;
});

afterAll(() => served.stop());

/** A version 1 request of the agent, with more fields written as they are (`rest` starts with a comma). */
function body(rest: string): string {
  return `{"protocol_version":1,"agent":"ann","pwd":"${pwd}"${rest}}`;
}

/** The same with one action for the waiting run, its action number written as given. */
function action(actNo: string): string {
  return body(`,"actions":[{"run":"${run}","act_no":${actNo},"action":2}]`);
}

async function put(data: string | Uint8Array<ArrayBuffer>): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}act/nim-strong`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: data,
  });
  return { status: response.status, text: await response.text() };
}

/** What the server answers: a refusal's description, or the contents of a success's messages. */
async function answer(
  data: string | Uint8Array<ArrayBuffer>,
): Promise<{ status: number; said: string | string[] }> {
  const { status, text } = await put(data);
  const parsed = JSON.parse(text) as { description?: string; messages?: { content: string }[] };
  return { status, said: parsed.description ?? parsed.messages!.map((message) => message.content) };
}

const GENERIC_400 = 'The browser (or proxy) sent a request that this server could not understand.';
const wrongNumber = (n: string) =>
  `Wrong action number ${n} (the action might have been for an earlier action request)`;
const malformed = (field: string, msg: string) => `Malformed request body in field ${field}: '${msg}'`;

describe('serve aisys reads numbers as Python and pydantic do', () => {
  it.each([['9223372036854775808.0'], ['1e19'], ['1e300'], ['-9223372036854775808.0']])(
    'refuses a float action number of 2^63 or more (%s)',
    async (actNo) => {
      expect(await answer(action(actNo))).toEqual({
        status: 400,
        said: malformed(
          "('actions', 0, 'act_no')",
          'Unable to parse input string as an integer, exceeded maximum size',
        ),
      });
    },
  );

  it.each([['1E400'], ['NaN'], ['-Infinity']])(
    'refuses an action number that is not finite (%s)',
    async (actNo) => {
      expect(await answer(action(actNo))).toEqual({
        status: 400,
        said: malformed("('actions', 0, 'act_no')", 'Input should be a finite number'),
      });
    },
  );

  it.each([
    ['9223372036854774784.0', '9223372036854774784.0', '9223372036854774784'],
    ['18446744073709551617', '18446744073709551617', '18446744073709551617'],
    ['99999999999999999999999', '99999999999999999999999', '99999999999999999999999'],
    ['9007199254740993', '9007199254740993', '9007199254740993'],
    ['"99999999999999999999"', '"99999999999999999999"', '99999999999999999999'],
    ['of 4,300 digits', `1${'0'.repeat(4299)}`, `1${'0'.repeat(4299)}`],
  ])('takes the integer action number %s and tells every digit of it', async (_name, actNo, told) => {
    expect(await answer(action(actNo))).toEqual({ status: 200, said: [wrongNumber(told)] });
  });

  it('refuses an integer of more than 4,300 digits anywhere in the body, as Python does', async () => {
    expect(await answer(action(`1${'0'.repeat(4300)}`))).toEqual({ status: 400, said: GENERIC_400 });
    expect(await answer(body(`,"client":"${'7'.repeat(5000)}"`))).toMatchObject({ status: 200 });
  });

  it('keeps every digit of a version 0 action number', async () => {
    const { status, text } = await put(
      `{"agent":"ann","pwd":"${pwd}","actions":[{"run":"${run}#0099999999999999999999","action":2}]}`,
    );
    expect(status).toBe(200);
    expect((JSON.parse(text) as { errors: string[] }).errors).toEqual([
      `MessageType.error: Run ${run}: ${wrongNumber('99999999999999999999')}`,
    ]);
  });

  it.each([
    ['1e19', 'Input should be a valid boolean'],
    ['9223372036854775808', 'Input should be a valid boolean'],
    ['9223372036854775807', 'Input should be a valid boolean, unable to interpret input'],
    ['NaN', 'Input should be a valid boolean'],
  ])('reads parallel_runs %s as pydantic does', async (value, msg) => {
    expect(await answer(body(`,"parallel_runs":${value}`))).toEqual({
      status: 400,
      said: malformed("('parallel_runs',)", msg),
    });
  });

  it.each([
    ['100000.0', '100000.0'],
    ['1e300', '1e+300'],
    ['1e16', '1e+16'],
    ['2e0', '2.0'],
    ['12345678901234567890', '12345678901234567890'],
    ['12345678901234567890.0', '1.2345678901234567e+19'],
    ['NaN', 'nan'],
    ['[1.0, 2, -Infinity]', '[1.0, 2, -inf]'],
    ['{"b": 1, "1": 2.0, "b": 3e300}', "{'b': 3e+300, '1': 2.0}"],
  ])('echoes an unsupported protocol version %s as Python prints it', async (version, printed) => {
    expect(await answer(`{"protocol_version":${version},"agent":"ann","pwd":"${pwd}"}`)).toEqual({
      status: 400,
      said: `Unsupported protocol version ${printed}`,
    });
  });
});

describe("serve aisys shows an action in Nim's messages as Python prints what the body wrote", () => {
  const expected = (shown: string) => `Invalid action (expected a string, got ${shown})`;
  const acting = (...actions: string[]) =>
    body(`,"actions":[${actions.map((a) => `{"run":"${run}","act_no":0,"action":${a}}`).join(',')}]`);

  it.each([
    ['[1]', expected('[1]')],
    ['[100000.0]', expected('[100000.0]')],
    ['[1e300]', expected('[1e+300]')],
    ['[-0.0]', expected('[-0.0]')],
    ['[1E2, 2.50, 1e-7, 1.5e300]', expected('[100.0, 2.5, 1e-07, 1.5e+300]')],
    ['[12345678901234567890]', expected('[12345678901234567890]')],
    ['{"b":1,"1":2.0}', expected("{'b': 1, '1': 2.0}")],
    ['{"a":[1.0,{"c":3e0}]}', expected("{'a': [1.0, {'c': 3.0}]}")],
    ['[NaN]', expected('[nan]')],
    ['[true, 1]', expected('[True, 1]')],
    ['null', expected('None')],
    ['NaN', 'Invalid action: nan'],
    ['"x"', "Invalid action: 'x'"],
    ['100000.0', 'You have to remove 1, 2, or 3 objects'],
    ['1e300', 'You have to remove 1, 2, or 3 objects'],
  ])('refuses the action %s saying %s', async (action, said) => {
    expect(await answer(acting(action))).toEqual({ status: 200, said: [said] });
  });

  it('shows each action of a request as written, in version 0 too', async () => {
    expect(await answer(acting('[2.0]', '[2]', '{"2":[0.0],"1":1}'))).toEqual({
      status: 200,
      said: [expected('[2.0]'), expected('[2]'), expected("{'2': [0.0], '1': 1}")],
    });
    const { status, text } = await put(
      `{"agent":"ann","pwd":"${pwd}","actions":[{"run":"${run}#0","action":{"x":[1e3, 1]}}]}`,
    );
    expect(status).toBe(200);
    expect((JSON.parse(text) as { errors: string[] }).errors).toEqual([
      `MessageType.error: Run ${run}: ${expected("{'x': [1000.0, 1]}")}`,
    ]);
  });
});

describe('serve aisys decodes a body as json.loads decodes bytes', () => {
  const ascii = () => body(',"client":"encoded","actions":[]');
  const utf16 = (text: string, littleEndian: boolean) => {
    const bytes = new Uint8Array(text.length * 2);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < text.length; i++) view.setUint16(i * 2, text.charCodeAt(i), littleEndian);
    return bytes;
  };
  const utf32 = (text: string, littleEndian: boolean) => {
    const points = [...text].map((char) => char.codePointAt(0)!);
    const bytes = new Uint8Array(points.length * 4);
    const view = new DataView(bytes.buffer);
    points.forEach((point, i) => view.setUint32(i * 4, point, littleEndian));
    return bytes;
  };

  const withMark = (mark: number[], text: Uint8Array) => new Uint8Array([...mark, ...text]);

  it.each([
    ['with a UTF-8 byte order mark', () => `\ufeff${ascii()}`],
    ['in UTF-16, little-endian', () => utf16(ascii(), true)],
    ['in UTF-16, big-endian', () => utf16(ascii(), false)],
    ['in UTF-32, little-endian', () => utf32(ascii(), true)],
    ['in UTF-32, big-endian', () => utf32(ascii(), false)],
    // 中 is 2D 4E in UTF-16LE: bytes that are text in UTF-8 too.
    ['in UTF-16 with a character beyond ASCII', () => utf16(body(',"client":"\u4e2d"'), true)],
  ])('answers a body %s', async (_name, make) => {
    expect(await put(make())).toMatchObject({ status: 200 });
  });

  it.each([
    ['in UTF-16 with its byte order mark, little-endian', () => withMark([0xff, 0xfe], utf16(ascii(), true))],
    ['in UTF-16 with its byte order mark, big-endian', () => withMark([0xfe, 0xff], utf16(ascii(), false))],
    ['in UTF-32 with its byte order mark', () => withMark([0xff, 0xfe, 0, 0], utf32(ascii(), true))],
    // é is E9 00 in UTF-16LE: bytes that are not UTF-8.
    ['in UTF-16 with é (E9 00)', () => utf16(body(',"client":"\u00e9"'), true)],
  ])('answers a body %s, whose bytes are not UTF-8', async (_name, make) => {
    expect(await put(make())).toMatchObject({ status: 200 });
  });

  it('refuses bytes that no encoding reads', async () => {
    const text = new TextEncoder().encode(body(',"client":"X"'));
    text[text.indexOf(0x58)] = 0xff;
    expect(await answer(text)).toEqual({ status: 400, said: GENERIC_400 });
  });

  it('refuses two byte order marks, and UTF-16 of an odd length', async () => {
    expect(await answer(`\ufeff\ufeff${ascii()}`)).toEqual({ status: 400, said: GENERIC_400 });
    expect(await answer(new Uint8Array([...utf16(ascii(), true), 0x20]))).toEqual({
      status: 400,
      said: GENERIC_400,
    });
  });

  it('crashes on the two bytes "1", NUL (UTF-16 for a bare number), as on a bare number', async () => {
    const { status, text } = await put(new Uint8Array([0x31, 0]));
    expect(status).toBe(500);
    expect(JSON.parse(text)).toMatchObject({ errorcode: 500, errorname: 'Internal Server Error' });
  });

  it('crashes on a body nested deeper than Python reads, as its error handler does (the generic 500)', async () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const { status, text } = await put(body(`,"extra":${nested(2000)}`));
    expect(status).toBe(500);
    expect(text).toBe(
      '{"errorcode": 500, "errorname": "Internal Server Error", "description": "The server encountered an internal error and was unable to complete your request. Either the server is overloaded or there is an error in the application."}',
    );
  });

  it('reads NaN and Infinity where the schema does not look', async () => {
    expect(await answer(body(',"extra":[NaN,Infinity,-Infinity]'))).toEqual({ status: 200, said: [] });
  });
});

describe('connect aisys ends with what the server rates', () => {
  it('shows the rating of /results and keeps the interval within the outcomes', async () => {
    // The first move of the session leaves 9 of 10: the strong opponent then wins that run; the rest are won.
    const policy = join(dir, 'lose-first.ts');
    await writeFile(
      policy,
      'let moves = 0;\nexport function act(percept: number) {\n  return moves++ === 0 ? 1 : percept % 4 || 1;\n}\n',
    );
    const result = await runInProcess(
      ['connect', 'aisys', '--config', config, '--policy', policy, '--runs', '10', '--no-parallel-runs'],
      { cwd: dir },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^mean reward +0\.9$/m);
    const interval = /^95% CI of mean +\[(\S+), (\S+)\]$/m.exec(result.stdout);
    // Nine wins and a loss: standard deviation sqrt(0.1), t(0.975, 9) = 2.262157; the upper end (1.126) is cut.
    expect(Number(interval?.[1])).toBeCloseTo(0.9 - (2.262157 * Math.sqrt(0.1)) / Math.sqrt(10), 4);
    expect(interval?.[2]).toBe('1.0');
    expect(result.stdout).toMatch(
      /^server rating +0\.9 \(best rating, fully evaluated; 10 runs on the server\)$/m,
    );
  });
});
