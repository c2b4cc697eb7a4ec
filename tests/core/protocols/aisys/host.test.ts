/**
 * The emulated server's HTTP side beyond what the recordings show: routes and methods, the order of the
 * body checks, the three error shapes, the admin routes, the results cache, protocol version 0, the sans-IO
 * connection, and what changes without `faithfulBugs`.
 */
import { describe, expect, it } from 'vitest';
import type { HttpMessage } from '../../../../src/core/protocols/contract';
import { AisysHost } from '../../../../src/core/protocols/aisys/host';
import { PROBE_CLASS } from './probe-env';
import { NIM_CLASS } from '../../../../src/core/envs/aisys/nim';
import { WUMPUS_CAVE_CLASS } from '../../../../src/core/envs/aisys/wumpus-cave';

function request(
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): HttpMessage {
  return {
    meta: { method, path, headers: { 'content-type': 'application/json', ...headers } },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

function setUp(options: ConstructorParameters<typeof AisysHost>[0] = {}) {
  const host = new AisysHost({
    adminPassword: 'admin',
    environmentClasses: [NIM_CLASS, PROBE_CLASS],
    ...options,
  });
  host.addEnvironment('nim', 'nim', { strong: true, random_start: false });
  const pwd = host.addAgent('nim', 'ann');
  const act = (body: Record<string, unknown> = {}, method = 'PUT') =>
    host.handle(request(method, '/act/nim', { protocol_version: 1, agent: 'ann', pwd, ...body }));
  return { host, pwd, act };
}

const bodyOf = (response: HttpMessage) => JSON.parse(response.body) as Record<string, unknown>;

describe('routes', () => {
  it('serves /act with GET and PUT (HEAD too), and leading double slashes', () => {
    const { host, pwd } = setUp();
    const body = { protocol_version: 1, agent: 'ann', pwd };
    for (const [method, path] of [
      ['PUT', '/act/nim'],
      ['GET', '/act/nim'],
      ['HEAD', '/act/nim'],
      ['PUT', '//act/nim'],
      ['PUT', '/act/nim?x=1'],
      ['PUT', '/act/n%69m'],
    ] as const)
      expect(host.handle(request(method, path, body)).meta.status, `${method} ${path}`).toBe(200);
  });

  it('answers other methods with the 405 page and OPTIONS with the allowed methods', () => {
    const { host } = setUp();
    const post = host.handle(request('POST', '/act/nim', {}));
    expect(post.meta).toEqual({
      status: 405,
      headers: { 'content-type': 'text/html; charset=utf-8', allow: 'OPTIONS, HEAD, GET, PUT' },
    });
    expect(post.body).toContain('<title>405 Method Not Allowed</title>');
    expect(host.handle(request('DELETE', '/act/nim', {})).meta.status).toBe(405);
    const options = host.handle(request('OPTIONS', '/act/nim', ''));
    expect(options).toEqual({
      meta: {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', allow: 'OPTIONS, HEAD, GET, PUT' },
      },
      body: '',
    });
  });

  it('answers unknown paths with the 404 page', () => {
    const { host } = setUp();
    for (const path of ['/act/', '/act/nim/', '/act/a/b', '/', '/uploadplugin', '/env/nim'])
      expect(host.handle(request('GET', path, '')).meta, path).toEqual({
        status: 404,
        headers: { 'content-type': 'text/html; charset=utf-8' },
      });
  });
});

describe('the body checks, in order', () => {
  it('checks the Content-Type before the size, and the size before the JSON', () => {
    const { host } = setUp();
    const huge = 'x'.repeat(1_000_001);
    expect(host.handle(request('PUT', '/act/nim', huge, { 'content-type': 'text/plain' })).meta.status).toBe(
      415,
    );
    expect(host.handle(request('PUT', '/act/nim', huge)).meta.status).toBe(413);
    expect(host.handle(request('PUT', '/act/nim', '{}', { 'content-length': '2000000' })).meta.status).toBe(
      413,
    );
    expect(host.handle(request('PUT', '/act/nim', 'not json')).meta.status).toBe(400);
    expect(
      host.handle(request('PUT', '/act/nim', '{}', { 'content-type': 'application/vnd.x+json' })).body,
    ).toContain('Expected JSON body');
  });

  it('checks the protocol version with Python equality and repr', () => {
    const { act } = setUp();
    expect(act({ protocol_version: true }).meta.status).toBe(200);
    expect(act({ protocol_version: 1.0 }).meta.status).toBe(200);
    expect(bodyOf(act({ protocol_version: [1] })).description).toBe('Unsupported protocol version [1]');
    expect(bodyOf(act({ protocol_version: 'x' })).description).toBe("Unsupported protocol version 'x'");
    expect(bodyOf(act({ protocol_version: 0.5 })).description).toBe('Unsupported protocol version 0.5');
  });

  it('checks the environment before the agent, and the agent before the password', () => {
    const { host, act } = setUp();
    const wrongEnv = host.handle(request('PUT', '/act/chess', { protocol_version: 1, agent: 'x', pwd: 'x' }));
    expect(wrongEnv.body).toBe(
      '{"errorcode": 400, "errorname": "Bad Request", "description": "No such environment chess"}',
    );
    expect(act({ agent: 'zed', pwd: 'x' }).body).toBe(
      '{"errorcode": 401, "errorname": "Unauthorized", "description": "unknown agent"}',
    );
    expect(act({ pwd: 'x' }).meta).toEqual({ status: 401, headers: { 'content-type': 'application/json' } });
  });
});

describe('crashes', () => {
  function probe(options: ConstructorParameters<typeof AisysHost>[0] = {}) {
    const host = new AisysHost({ adminPassword: 'admin', environmentClasses: [PROBE_CLASS], ...options });
    host.addEnvironment('probe', 'probe', {});
    const pwd = host.addAgent('probe', 'dave');
    const act = (actions: unknown[], headers: Record<string, string> = {}) =>
      host.handle(
        request('PUT', '/act/probe', { protocol_version: 1, agent: 'dave', pwd, actions }, headers),
      );
    act([]);
    return { host, act };
  }

  it('name the exception, or show the traceback to an admin, and keep it for /errors', () => {
    const { host, act } = probe();
    const crash = act([{ run: '1', act_no: 0, action: 'crash' }]);
    expect(crash.meta.status).toBe(500);
    expect(crash.body).toBe(
      '{"description":"RuntimeError","errorcode":500,"errorname":"Internal Server Error"}\n',
    );
    const asAdmin = act([{ run: '1', act_no: 0, action: 'crash' }], {
      authorization: `Basic ${btoa('admin')}`,
    });
    const { description } = bodyOf(asAdmin) as { description: string };
    expect(description).toMatch(/^Traceback \(most recent call last\):\n/);
    expect(description.trimEnd().split('\n').at(-1)).toBe('RuntimeError: probe plugin crashed on purpose');
    const errors = host.handle(request('GET', '/errors', { 'admin-pwd': 'admin' }));
    expect(JSON.parse(errors.body)).toHaveLength(2);
  });

  it('answer a bare number or true with the generic 500, faithfully; with a 400 without the bugs', () => {
    const { host } = setUp();
    for (const body of ['5', 'true', '1.5']) {
      const response = host.handle(request('PUT', '/act/nim', body));
      expect(response.meta.status).toBe(500);
      expect(bodyOf(response).description).toContain('The server encountered an internal error');
    }
    expect(bodyOf(host.handle(request('PUT', '/act/nim', '"my protocol_version"'))).description).toBe(
      'TypeError',
    );
    const fixed = setUp({ faithfulBugs: false }).host;
    expect(bodyOf(fixed.handle(request('PUT', '/act/nim', '5'))).description).toBe(
      "Malformed request body in field (): 'Input should be a valid dictionary or instance of RequestV0'",
    );
  });
});

describe('admin routes', () => {
  it('make environments and agents with the admin password, in the body or a Basic header', () => {
    const { host } = setUp();
    const made = host.handle(
      request('PUT', '/makeenv/nim-2', {
        'admin-pwd': 'admin',
        env_class: 'simple_nim.environment:Environment',
        display_name: 'Nim 2',
        config: { strong: false, random_start: true },
      }),
    );
    expect(made.body).toBe('{"success":true}\n');
    const agent = host.handle(
      request(
        'POST',
        '/makeagent/nim-2/bo',
        { overwrite: false },
        { authorization: `Basic ${btoa('admin')}` },
      ),
    );
    const config = bodyOf(agent);
    expect(Object.keys(config)).toEqual(['agent', 'env', 'pwd']);
    expect(config.pwd).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const played = host.handle(
      request('PUT', '/act/nim-2', { protocol_version: 1, agent: 'bo', pwd: config.pwd }),
    );
    expect(played.meta.status).toBe(200);
  });

  it('refuse without the password, and say what is wrong with the request', () => {
    const { host } = setUp();
    const make = (body: unknown, headers: Record<string, string> = {}) =>
      host.handle(request('POST', '/makeagent/nim/zed', body, headers)).body;
    expect(make({ overwrite: false })).toContain('"admin authorization is required"');
    expect(make({ 'admin-pwd': 'nope' })).toContain('"wrong password"');
    expect(make({ 'admin-pwd': 5 })).toContain('Bad value for \\"admin-pwd\\"');
    expect(make({ a: 1 }, { authorization: 'Bearer x' })).toContain('Bad authentication scheme');
    expect(make({ a: 1 }, { authorization: 'Basic' })).toContain('Bad value for Authorization header');
    expect(make({})).toContain('Expected JSON body');
    expect(make({ 'admin-pwd': 'admin' })).toContain('"agent"');
    expect(make({ 'admin-pwd': 'admin' })).toContain('Agent nim/zed already exists');
    const unconfigured = new AisysHost();
    expect(unconfigured.handle(request('GET', '/errors', { 'admin-pwd': 'x' })).body).toContain(
      'admin access is not configured',
    );
  });

  it('refuse bad environment names and unknown classes as the real server does', () => {
    const { host } = setUp();
    const env = (name: string, envClass: string) =>
      host.handle(
        request('PUT', `/makeenv/${name}`, {
          'admin-pwd': 'admin',
          env_class: envClass,
          display_name: 'x',
          config: {},
        }),
      );
    expect(bodyOf(env('bad_name!', 'nim')).description).toBe("Illegal environment name 'bad_name!'");
    const unknown = env('x1', 'no_such_plugin.m:E');
    expect(unknown.meta.status).toBe(500);
    expect((bodyOf(unknown).description as string).trimEnd().split('\n').at(-1)).toBe(
      "ModuleNotFoundError: No module named 'no_such_plugin'",
    );
    expect(bodyOf(env('nim', 'nim')).description).toBe('Environment nim already exists');
  });

  it('block and unblock an agent, answering 500 faithfully and 200 without the bugs', () => {
    for (const faithfulBugs of [true, false]) {
      const { host, pwd, act } = setUp({ faithfulBugs });
      const blocked = host.handle(request('PUT', '/blockagent/nim/ann', { pwd }));
      expect(blocked.meta.status).toBe(faithfulBugs ? 500 : 200);
      expect(bodyOf(act()).description).toBe('the agent is not active');
      const unblocked = host.handle(request('PUT', '/unblockagent/nim/ann', { 'admin-pwd': 'admin' }));
      expect(unblocked.meta.status).toBe(faithfulBugs ? 500 : 200);
      expect(act().meta.status).toBe(200);
    }
  });
});

describe('results', () => {
  it('are public, list agents with finished runs, and are cached for 10 s per path', () => {
    let clock = 0;
    const { host, act } = setUp({ now: () => clock });
    const results = () => host.handle(request('GET', '/results/nim', '', { 'content-type': '' })).body;
    expect(results()).toBe('{}\n');
    act({ parallel_runs: false });
    // 10 - 2 leaves 8: the strong opponent draws; then play on perfectly.
    for (let actNo = 0; actNo < 3; actNo++) {
      const state = host.server.runs.get(1)!.state as { remaining: number };
      if (host.server.runs.get(1)!.finished) break;
      act({ actions: [{ run: '1', act_no: actNo, action: state.remaining % 4 || 1 }], parallel_runs: false });
    }
    expect(results()).toBe('{}\n');
    clock = 10_001;
    expect(results()).toMatch(/^\{"ann":\{"fully-evaluated":false,"rating":0\.0,"total-runs":1\}\}\n$/);
    expect(host.handle(request('GET', '/results', '')).body).toContain('"nim":{"ann"');
    expect(host.handle(request('GET', '/results/chess', '')).meta.status).toBe(404);
  });
});

describe("environments' messages", () => {
  it('show an action as Python holds what the body wrote, each at its place in the request', () => {
    const host = new AisysHost({ environmentClasses: [NIM_CLASS, WUMPUS_CAVE_CLASS] });
    host.addEnvironment('cave', 'wumpus-cave', {});
    const pwd = host.addAgent('cave', 'ann');
    const act = (actions: string) =>
      bodyOf(
        host.handle(
          request(
            'PUT',
            '/act/cave',
            `{"protocol_version":1,"agent":"ann","pwd":"${pwd}","actions":${actions}}`,
          ),
        ),
      );
    const first = act('[]') as { action_requests: { run: string }[] };
    const [a, b] = first.action_requests.map(({ run }) => run);
    const said = (actions: string) =>
      (act(actions).messages as { content: string }[]).map(({ content }) => content);
    const skills = '(first spend your 4 skill points: {"agility": a, "fighting": f})';
    expect(
      said(
        `[{"run":"${a}","act_no":0,"action":[1.0, 2.5]},{"run":"${b}","act_no":0,"action":[{"b":1,"1":2e0}]}]`,
      ),
    ).toEqual([`Bad action: [1.0, 2.5] ${skills}`, `Bad action: [{'b': 1, '1': 2.0}] ${skills}`]);
    // What needs no reading of its own (no integral number, no integer-like key), and what does, with NaN.
    expect(said(`[{"run":"${a}","act_no":0,"action":[2.5, "x", null]}]`)).toEqual([
      `Bad action: [2.5, 'x', None] ${skills}`,
    ]);
    expect(said(`[{"run":"${a}","act_no":0,"action":[NaN, 3.0]}]`)).toEqual([
      `Bad action: [nan, 3.0] ${skills}`,
    ]);
  });
});

describe('protocol version 0', () => {
  it('reads run ids "<run>#<number>" and answers in its own format', () => {
    const { host, pwd } = setUp();
    const v0 = (actions: unknown[], single = false) =>
      bodyOf(host.handle(request('PUT', '/act/nim', { agent: 'ann', pwd, actions, single_request: single })));
    expect(v0([], true)).toEqual({
      'action-requests': [{ percept: 10, run: '1#0' }],
      errors: [],
      messages: [],
    });
    expect(v0([{ run: '1#0', action: 4 }], true)).toEqual({
      'action-requests': [{ percept: 10, run: '1#0' }],
      errors: ['MessageType.error: Run 1: You have to remove 1, 2, or 3 objects'],
      messages: [],
    });
    expect(v0([{ run: '1#0', action: 1 }], true)).toEqual({
      'action-requests': [{ percept: 8, run: '1#1' }],
      errors: [],
      messages: ['MessageType.info: Run 1: Opponent removed 1'],
    });
  });
});

describe('the sans-IO connection', () => {
  it('sends one response per request received', () => {
    const { host, pwd } = setUp();
    const sent: HttpMessage[] = [];
    const peer = host.connect({ send: (message) => sent.push(message), close: () => undefined });
    peer.receive(request('PUT', '/act/nim', { protocol_version: 1, agent: 'ann', pwd }));
    peer.receive(request('POST', '/act/nim', {}));
    expect(sent.map((message) => message.meta.status)).toEqual([200, 405]);
  });

  it('plays the same for the same seed: runs and passwords', () => {
    const play = (seed: number) => {
      const host = new AisysHost({ seed });
      host.addEnvironment('nim', 'nim', { strong: false, random_start: true });
      const pwd = host.addAgent('nim', 'a');
      return [pwd, host.handle(request('PUT', '/act/nim', { protocol_version: 1, agent: 'a', pwd })).body];
    };
    expect(play(1)).toEqual(play(1));
    expect(play(1)[0]).not.toBe(play(2)[0]);
  });
});
