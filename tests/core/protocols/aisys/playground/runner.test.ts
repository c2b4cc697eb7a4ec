import { describe, expect, it } from 'vitest';
import type { PolicySource } from '../../../../../src/core/policy/types';
import { aisysProtocol, AISYS_SAMPLES, aisysJsonlFormat } from '../../../../../src/core/protocols/aisys';
import {
  readAgentConfig,
  sanitizeAisysOptions,
  withAccountFor,
  withPasswordOf,
  type AisysPlaygroundOptions,
} from '../../../../../src/core/protocols/aisys/playground/options';
import type {
  AisysExchangeRow,
  AisysOverview,
  AisysRunHistory,
} from '../../../../../src/core/protocols/aisys/playground/run-book';
import type { AisysExchangeDetail } from '../../../../../src/core/protocols/aisys/playground/questions';
import { AisysHost } from '../../../../../src/core/protocols/aisys/host';
import type { BridgeChannel } from '../../../../../src/core/bridge/bridge-channel';
import type { HttpMessage } from '../../../../../src/core/protocols/contract';
import type { BridgeAccess, BridgedPlaygroundRunner } from '../../../../../src/core/session/bridge-route';
import { aisysLinkFragment, aisysOptionsFromLink } from '../../../../../src/ui/protocols/aisys/link';
import { wireRequest } from '../../../../../src/core/protocols/aisys/playground/wire-request';
import type {
  PlaygroundSession,
  SessionConfig,
  SessionUpdate,
} from '../../../../../src/core/protocols/session-contract';
import { parseTranscriptJson } from '../../../../../src/core/transcript/json-format';
import type { Annotation, TranscriptMessage } from '../../../../../src/core/transcript/model';
import { validateTranscript } from '../../../../../src/core/transcript/validate';
import { inProcessPolicy, recordingServices as recordedServices } from '../../../session/playground-fakes';

const playground = aisysProtocol.playground!;

/** Services recording what the runner reports; `ended` settles on a final status. */
function recordingServices() {
  const { services, updates, ended } = recordedServices(inProcessPolicy(playground));
  const messages = (): TranscriptMessage[] => updates.flatMap((u) => u.messages);
  const annotations = (): Annotation[] => updates.flatMap((u) => u.annotations);
  const last = <K extends keyof SessionUpdate>(key: K): SessionUpdate[K] | undefined =>
    updates.findLast((u) => u[key] !== undefined)?.[key];
  return { services, updates, ended: ended.then((update) => update.status), messages, annotations, last };
}

function policy(code: string, level: 'policy' | 'wire' = 'policy'): PolicySource {
  return { code, language: 'ts', fileName: 'policy.ts', level, seed: 1 };
}

const sample = (id: string) => policy(AISYS_SAMPLES.find((s) => s.id === id)!.code);

const CONFIG = { agent: 'ada', env: 'nim', pwd: 'secret-1', url: 'https://aisys.example.org/' };

function config(options: Partial<AisysPlaygroundOptions>, more: Partial<SessionConfig> = {}): SessionConfig {
  return {
    protocol: 'aisys',
    environment: 'nim',
    rounds: 20,
    seed: 7,
    delayMs: 0,
    budgetMs: 10_000,
    policy: sample('nim-optimal'),
    startPaused: false,
    options,
    ...more,
  };
}

async function play(options: Partial<AisysPlaygroundOptions>, more: Partial<SessionConfig> = {}) {
  const recorded = recordingServices();
  const runner = await playground.loadRunner();
  const session: PlaygroundSession = await runner.start(config(options, more), recorded.services);
  const status = await recorded.ended;
  return { ...recorded, session, status };
}

describe('aisys playground runner', () => {
  it('plays 20 Nim runs with 5 in parallel against the emulated server with the learner config', async () => {
    const { status, session, messages, annotations } = await play({
      config: CONFIG,
      accounts: withAccountFor([], CONFIG),
    });
    expect(status).toBe('finished');
    expect(annotations().filter((a) => a.type === 'violation')).toEqual([]);
    const overview = session.ask('overview', []) as AisysOverview;
    expect(overview.channel).toBe('nim/ada');
    expect(overview.counts.finished).toBeGreaterThanOrEqual(20);
    // Perfect play from 9 to 11 always wins: every outcome is 1, and the rating follows.
    expect(overview.rows.filter((r) => r.status === 'finished').every((r) => r.outcome === 1)).toBe(true);
    expect(overview.rating).toMatchObject({ threshold: 10, fullyEvaluated: true, current: 1, best: 1 });
    expect(overview.series.length).toBe(overview.counts.finished);
    // Five action requests per answer, as the server asks for parallel runs.
    const first = messages().find((m) => m.dir === 's2c')!;
    expect((JSON.parse(first.text!) as { action_requests: unknown[] }).action_requests).toHaveLength(5);
    // The requests are the learner's: agent, password and the path of the config's URL.
    const request = messages().find((m) => m.dir === 'c2s')!;
    expect(request.http?.path).toBe('/act/nim');
    expect(JSON.parse(request.text!)).toMatchObject({ agent: 'ada', pwd: 'secret-1', parallel_runs: true });
    // Every exchange is judged by the protocol's machines: nothing is wrong.
    const transcript = parseTranscriptJson(session.exportJson().join(''));
    expect(validateTranscript(transcript, aisysProtocol).violations).toEqual([]);
  });

  it("judges a wire-level policy's requests with the server's machine as they are sent", async () => {
    // Every action twice: the server applies the first and refuses the second; the rule says why.
    const code = `
      export function onMessage(response: any, context: any) {
        const { agent, pwd } = context.config;
        if (response?.body?.finished_runs && Object.keys(response.body.finished_runs).length) return null;
        const requests = response ? response.body.action_requests : [];
        const actions = requests.flatMap((r: any) => [0, 1].map(() => ({ run: r.run, act_no: r.act_no, action: 1 })));
        return { protocol_version: 1, agent, pwd, actions };
      }`;
    const { status, annotations } = await play({}, { policy: policy(code, 'wire') });
    expect(status).toBe('finished');
    const violations = annotations().filter((a) => a.type === 'violation');
    expect(violations.length).toBeGreaterThan(0);
    expect(violations[0]!.data).toMatchObject({ role: 'server', rule: 'aisys.action.duplicate' });
  });

  it('asks one run at a time without parallel runs, and shows a run history', async () => {
    const { status, session, messages } = await play({ parallelRuns: false }, { rounds: 3 });
    expect(status).toBe('finished');
    for (const m of messages().filter((m) => m.dir === 's2c'))
      expect(
        (JSON.parse(m.text!) as { action_requests: unknown[] }).action_requests.length,
      ).toBeLessThanOrEqual(1);
    const overview = session.ask('overview', []) as AisysOverview;
    const finished = overview.rows.find((r) => r.status === 'finished')!;
    const history = session.ask('run', [finished.id]) as AisysRunHistory;
    expect(history.steps.length).toBe(finished.steps);
    expect(typeof history.steps[0]!.percept).toBe('number');
    expect(history.steps[0]!.actions[0]!.action).toBe((history.steps[0]!.percept as number) % 4 || 1);
  });

  it("answers a wrong password with the real server's 401 body and fails the session saying so", async () => {
    const changed = { ...CONFIG, pwd: 'not-the-password' };
    const { status, session, last, messages, annotations } = await play({
      config: changed,
      // The server made the account from the first config, with its password.
      accounts: withAccountFor([], CONFIG),
    });
    expect(status).toBe('failed');
    const response = messages().find((m) => m.dir === 's2c')!;
    expect(response.http?.status).toBe(401);
    expect(response.text).toBe(
      '{"errorcode": 401, "errorname": "Unauthorized", "description": "wrong password"}',
    );
    expect(last('error')).toBe('The server answered 401: Unauthorized: wrong password');
    expect(annotations().some((a) => a.type === 'error' && a.index === response.index)).toBe(true);
    const overview = session.ask('overview', []) as AisysOverview;
    expect(overview.lastError).toMatchObject({ status: 401 });
    const { rows } = session.ask('exchanges', [0, 10]) as { rows: AisysExchangeRow[] };
    expect(rows[0]).toMatchObject({ method: 'PUT', path: '/act/nim', status: 401 });
    const detail = session.ask('exchange', [rows[0]!.request]) as AisysExchangeDetail;
    expect(detail.response?.body).toContain('"description": "wrong password"');
    expect(detail.request.body).toContain('"pwd": "not-the-password"');
  });

  it('lets a learner fix the account: the config password becomes the server password', async () => {
    const changed = { ...CONFIG, pwd: 'new' };
    const { status } = await play(
      { config: changed, accounts: withPasswordOf(withAccountFor([], CONFIG), changed) },
      { rounds: 2 },
    );
    expect(status).toBe('finished');
  });

  it('plays the wire level: the policy writes each request body and reads each response', async () => {
    const code = `
      export function onMessage(response: any, context: any) {
        const { agent, pwd } = context.config;
        if (response && response.status !== 200) return null;
        const requests = response ? response.body.action_requests : [];
        const actions = requests.map((r: any) => ({ run: r.run, act_no: r.act_no, action: r.percept % 4 || 1 }));
        return { protocol_version: 1, agent, pwd, actions, parallel_runs: true };
      }`;
    const { status, session } = await play({}, { policy: policy(code, 'wire'), rounds: 6 });
    expect(status).toBe('finished');
    const overview = session.ask('overview', []) as AisysOverview;
    expect(overview.counts.finished).toBeGreaterThanOrEqual(6);
    expect(overview.rows.filter((r) => r.status === 'finished').every((r) => r.outcome === 1)).toBe(true);
  });

  it('plays the wire-level sample until the run limit', async () => {
    const wire = AISYS_SAMPLES.find((s) => s.level === 'wire')!;
    const { status, session } = await play({}, { policy: policy(wire.code, 'wire'), rounds: 10 });
    expect(status).toBe('finished');
    expect((session.ask('overview', []) as AisysOverview).rating).toMatchObject({
      totalRuns: 10,
      current: 1,
    });
  });

  it('sends what a wire-level policy writes, even a POST, and shows the server answer', async () => {
    const code = `
      export function onMessage(response: any) {
        if (response) { console.log(response.status); return null; }
        return { http: { method: 'POST', body: '{}' } };
      }`;
    const { status, messages, annotations } = await play({}, { policy: policy(code, 'wire') });
    expect(status).toBe('finished');
    const [request, response] = messages();
    expect(request!.http).toMatchObject({ method: 'POST', path: '/act/nim' });
    expect(response!.http?.status).toBe(405);
    expect(
      annotations().some((a) => a.type === 'policy-log' && (a.data as { text: string }).text === '405'),
    ).toBe(true);
  });

  it('reports a policy that throws, located, and stops', async () => {
    const { status, last } = await play(
      {},
      { policy: policy('export function act() { throw new Error("no idea"); }') },
    );
    expect(status).toBe('failed');
    expect(last('fault')?.message).toContain('no idea');
  });

  it('fails a policy whose action is not JSON without sending it, as the command line does', async () => {
    const { status, last, messages } = await play(
      {},
      { policy: policy('export function act(): number { return Infinity; }') },
    );
    expect(status).toBe('failed');
    expect(last('fault')).toMatchObject({
      kind: 'result',
      message: expect.stringMatching(
        /^the action for run \d+ \(act_no 0\) cannot be written as JSON: Infinity; it was not sent/,
      ) as unknown,
    });
    // The first request only: nothing with the action went out.
    expect(messages().filter((message) => message.dir === 'c2s')).toHaveLength(1);
  });

  it('keeps the real server bugs by default and fixes them when asked', async () => {
    // Acting on a run again after it finished: the real server asks the environment again.
    const code = `
      const done: string[] = [];
      export function onMessage(response: any, context: any) {
        const { agent, pwd } = context.config;
        const body = response?.body;
        if (body?.finished_runs && Object.keys(body.finished_runs).length) {
          const [run] = Object.keys(body.finished_runs);
          done.push(run);
          return { protocol_version: 1, agent, pwd, actions: [{ run, act_no: 99, action: 1 }] };
        }
        if (done.length) return null;
        const actions = (body?.action_requests ?? []).map((r: any) => ({ run: r.run, act_no: r.act_no, action: r.percept % 4 || 1 }));
        return { protocol_version: 1, agent, pwd, actions };
      }`;
    const faithful = await play({ faithfulBugs: true }, { policy: policy(code, 'wire'), rounds: 100 });
    const fixed = await play({ faithfulBugs: false }, { policy: policy(code, 'wire'), rounds: 100 });
    const lastAnswer = (m: TranscriptMessage[]) => m.filter((x) => x.dir === 's2c').at(-1)!.text!;
    expect(lastAnswer(faithful.messages())).toContain('Wrong action number');
    expect(lastAnswer(fixed.messages())).toContain('This run has already finished');
  });

  it('shows an imported recording in the same views', async () => {
    const { session } = await play({}, { rounds: 5 });
    const transcript = parseTranscriptJson(session.exportJson().join(''));
    const runner = await playground.loadRunner();
    const recorded = recordingServices();
    const shown = runner.show({ transcript, origin: 'imported' }, recorded.services);
    const overview = shown.ask('overview', []) as AisysOverview;
    expect(overview.counts.finished).toBeGreaterThanOrEqual(5);
    expect(overview.rating.totalRuns).toBe(overview.counts.finished);
    expect(aisysJsonlFormat).toBeDefined();
  });

  it('answers for a recording still being read as far as it is read, and for the rest once it is', async () => {
    const { session } = await play({}, { rounds: 12 });
    const whole = parseTranscriptJson(session.exportJson().join(''));
    const runner = await playground.loadRunner();
    const answers = (shown: PlaygroundSession) => ({
      overview: shown.ask('overview', []) as AisysOverview,
      exchanges: shown.ask('exchanges', [0, 10_000]) as { total: number; rows: AisysExchangeRow[] },
    });
    const complete = answers(
      runner.show({ transcript: whole, origin: 'imported' }, recordingServices().services),
    );
    // The same recording read from its file a third at a time.
    const growing = { ...whole, messages: [] as TranscriptMessage[], annotations: [] };
    const listeners: (() => void)[] = [];
    const growth = { done: false, onGrow: (listener: () => void) => void listeners.push(listener) };
    const shown = runner.show(
      { transcript: growing, origin: 'imported', growing: growth },
      recordingServices().services,
    );
    const third = Math.ceil(whole.messages.length / 3);
    growing.messages.push(...whole.messages.slice(0, third));
    listeners.forEach((listener) => listener());
    const early = answers(shown);
    expect(early.exchanges.total).toBeLessThan(complete.exchanges.total);
    expect(early.exchanges.total).toBeGreaterThan(0);
    growing.messages.push(...whole.messages.slice(third));
    growth.done = true;
    listeners.forEach((listener) => listener());
    expect(answers(shown)).toEqual(complete);
    expect(complete.overview.counts.finished).toBeGreaterThanOrEqual(12);
  });
});

describe('aisys playground runner through the bridge', () => {
  it('plays a real server over the bridge HTTP relay, retrying a busy answer after a pause', async () => {
    // The "real server": an emulated host behind a fake bridge channel that is busy once.
    const host = new AisysHost({ seed: 4 });
    host.addEnvironment('nim', 'nim', { strong: false, random_start: true });
    host.addAgent('nim', CONFIG.agent, CONFIG.pwd);
    let busy = 1;
    const paths: string[] = [];
    const bridge: BridgeAccess = {
      connect: async (target, endpoint) => {
        expect(target).toBe('course');
        endpoint.connect({ send: () => undefined, close: () => undefined }, { id: 'course#1' });
        const channel = {
          request: async (request: HttpMessage) => {
            paths.push(request.meta.path ?? '');
            if (busy-- > 0)
              return { meta: { status: 503, headers: { 'content-type': 'text/html' } }, body: 'busy' };
            return host.handle(request);
          },
          close: () => undefined,
        };
        return channel as unknown as BridgeChannel;
      },
      serve: () => () => undefined,
      describe: () => 'http://127.0.0.1:5000',
      silenceMs: 30_000,
    };
    const recorded = recordingServices();
    const runner = (await playground.loadRunner()) as BridgedPlaygroundRunner;
    const session = await runner.startBridged(
      config({ config: CONFIG, accounts: [] }, { rounds: 5 }),
      { mode: 'outbound', target: 'course' },
      recorded.services,
      bridge,
    );
    expect(await recorded.ended).toBe('finished');
    const transcript = parseTranscriptJson(session.exportJson().join(''));
    expect(transcript.meta).toMatchObject({
      source: 'bridge',
      target: 'course',
      server: 'http://127.0.0.1:5000',
    });
    // The busy answer is in the transcript, then the same request again.
    const [first, busyAnswer, again] = transcript.messages;
    expect(busyAnswer!.http?.status).toBe(503);
    expect(again!.text).toBe(first!.text);
    expect(recorded.annotations().some((a) => /busy \(503\).*3 s/.test(JSON.stringify(a.data)))).toBe(true);
    expect(paths.every((path) => path === '/act/nim')).toBe(true);
    expect((session.ask('overview', []) as AisysOverview).counts.finished).toBeGreaterThanOrEqual(5);
  });

  it('answers a listen port with the emulated server (real clients against the page)', async () => {
    const runner = (await playground.loadRunner()) as BridgedPlaygroundRunner;
    const served: string[] = [];
    const bridge: BridgeAccess = {
      connect: () => Promise.reject(new Error('no targets')),
      serve: (listen) => {
        served.push(listen);
        return () => undefined;
      },
      describe: () => 'http://127.0.0.1:5000',
      silenceMs: 30_000,
    };
    const session = await runner.startBridged(
      config({}),
      { mode: 'inbound', listen: 'x' },
      recordingServices().services,
      bridge,
    );
    expect(served).toEqual(['x']);
    session.stop();
  });
});

describe('aisys agent config and options', () => {
  it('reads a course config and says what is wrong with a bad one, located', () => {
    expect(readAgentConfig(JSON.stringify(CONFIG))).toEqual({ ok: true, config: CONFIG });
    expect(readAgentConfig('{"agent": "a", "env": "nim"}')).toEqual({
      ok: false,
      error: 'the config needs "pwd", "url" as strings',
    });
    const broken = readAgentConfig('{\n  "agent": "a",\n  "env" "nim"\n}');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.error).toMatch(/line 3/);
  });

  it('keeps the first password of an account until told otherwise', () => {
    const accounts = withAccountFor([], CONFIG);
    expect(withAccountFor(accounts, { ...CONFIG, pwd: 'other' })).toEqual(accounts);
    expect(withPasswordOf(accounts, { ...CONFIG, pwd: 'other' })).toEqual([
      { env: 'nim', agent: 'ada', pwd: 'other' },
    ]);
  });

  it('sanitizes stored options', () => {
    expect(
      sanitizeAisysOptions({ parallelRuns: 'yes', accounts: [{ env: 1 }], config: { agent: 'x' } }),
    ).toEqual({
      parallelRuns: true,
      abandonOldRuns: false,
      faithfulBugs: true,
      accounts: [],
    });
  });

  it('puts the switches in a share link, never the agent config', () => {
    const options = sanitizeAisysOptions({
      parallelRuns: false,
      faithfulBugs: false,
      config: CONFIG,
      accounts: withAccountFor([], CONFIG),
    });
    const fragment = aisysLinkFragment(options);
    expect(fragment).not.toContain('secret');
    expect(fragment).not.toContain('ada');
    expect(aisysOptionsFromLink(fragment)).toEqual({
      parallelRuns: false,
      abandonOldRuns: false,
      faithfulBugs: false,
    });
    expect(aisysOptionsFromLink('p=rddlsim')).toBeUndefined();
  });

  it('turns wire-level answers into requests', () => {
    expect(wireRequest('not json', 'nim', '/')).toMatchObject({ ok: true, request: { body: 'not json' } });
    expect(wireRequest({ a: 1 }, 'nim', '/course/')).toMatchObject({
      ok: true,
      request: { meta: { method: 'PUT', path: '/course/act/nim' }, body: '{"a":1}' },
    });
    expect(wireRequest({ http: { path: 'act' } }, 'nim', '/')).toEqual({
      ok: false,
      problem: 'http.path must be a path starting with "/"',
    });
  });
});
