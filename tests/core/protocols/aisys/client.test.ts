/**
 * The client against the emulated server in memory: the run limit as the course client counts it, one run
 * at a time, abandoning old runs, per-run memory, 503 retries with a growing pause, and how errors, policy
 * faults and `stop` end it; actions that are not JSON never sent, and a refused action given again paced
 * and then given up.
 */
import { describe, expect, it } from 'vitest';
import type { HttpMessage } from '../../../../src/core/protocols/contract';
import {
  AisysClient,
  type AisysClientEvent,
  type AisysClientOptions,
} from '../../../../src/core/protocols/aisys/client';
import { localDecide } from '../../../../src/core/protocols/aisys/decide';
import { AisysHost } from '../../../../src/core/protocols/aisys/host';
import { readResponse, unwritableJson } from '../../../../src/core/protocols/aisys/codec';

const perfect = localDecide((percept) => (percept as number) % 4 || 1);

function setUp() {
  const host = new AisysHost({ seed: 3 });
  host.addEnvironment('nim', 'nim', { strong: false, random_start: true });
  const pwd = host.addAgent('nim', 'ann');
  return { host, pwd };
}

/** Plays a client against `answer` (the host by default); returns the requests it sent and its outcome. */
async function play(
  options: Partial<AisysClientOptions> & { pwd: string },
  answer: (request: HttpMessage) => HttpMessage,
) {
  const events: AisysClientEvent[] = [];
  const client = new AisysClient({
    agent: 'ann',
    env: 'nim',
    decide: perfect,
    onEvent: (event) => events.push(event),
    ...options,
  });
  const sent: HttpMessage[] = [];
  const peer = client.connect({
    send: (request) => {
      sent.push(request);
      const response = answer(request);
      queueMicrotask(() => peer.receive(response));
    },
    close: () => undefined,
  });
  const outcome = await client.ended;
  return { client, sent, events, outcome };
}

const bodies = (sent: HttpMessage[]) =>
  sent.map((request) => JSON.parse(request.body) as Record<string, unknown>);

describe('the client', () => {
  it('plays until the run limit and reports each finished run with its actions', async () => {
    const { host, pwd } = setUp();
    const { sent, events, outcome, client } = await play({ pwd, runLimit: 12 }, (request) =>
      host.handle(request),
    );
    expect(outcome).toEqual({ kind: 'finished', reason: 'run-limit' });
    expect(client.runsFinished).toBeGreaterThanOrEqual(12);
    const finished = events.filter((event) => event.kind === 'run-finished');
    expect(finished.length).toBe(client.runsFinished);
    for (const event of finished) expect(event).toMatchObject({ outcome: 1, actions: expect.any(Number) });
    expect(sent[0]!.meta).toEqual({
      method: 'PUT',
      path: '/act/nim',
      headers: { 'content-type': 'application/json' },
    });
    expect(bodies(sent)[0]).toEqual({
      protocol_version: 1,
      agent: 'ann',
      pwd,
      actions: [],
      to_abandon: [],
      parallel_runs: true,
      client: 'protoplay',
    });
  });

  it('asks for one run at a time without parallel runs', async () => {
    const { host, pwd } = setUp();
    const { sent } = await play({ pwd, runLimit: 3, parallelRuns: false }, (request) => host.handle(request));
    for (const body of bodies(sent)) {
      expect(body.parallel_runs).toBe(false);
      expect((body.actions as unknown[]).length).toBeLessThanOrEqual(1);
    }
  });

  it('abandons the runs under way at its start when asked to', async () => {
    const { host, pwd } = setUp();
    // An earlier session answered the first requests of five runs and left the second ones unanswered.
    const send = (actions: unknown[]) =>
      host.handle({
        meta: { method: 'PUT', path: '/act/nim', headers: { 'content-type': 'application/json' } },
        body: JSON.stringify({ protocol_version: 1, agent: 'ann', pwd, actions }),
      });
    send([]);
    send([1, 2, 3, 4, 5].map((run) => ({ run: String(run), act_no: 0, action: 1 })));
    const old = host.server.runs.size;
    const { sent, events } = await play({ pwd, runLimit: 10, abandonOldRuns: true }, (request) =>
      host.handle(request),
    );
    const abandoned = (bodies(sent)[1]!.to_abandon as string[]).map(Number);
    expect(abandoned.length).toBeGreaterThan(0);
    for (const id of abandoned) {
      expect(id).toBeLessThanOrEqual(old);
      expect(events).toContainEqual({ kind: 'run-finished', run: String(id), outcome: 0, actions: 0 });
    }
  });

  it('gives each run a memory of its own, kept while the run plays', async () => {
    const { host, pwd } = setUp();
    const decide = localDecide((percept, run) => {
      run.memory.actions = ((run.memory.actions as number | undefined) ?? 0) + 1;
      if (run.memory.actions !== run.actNo + 1) throw new Error(`run ${run.id} forgot its memory`);
      return (percept as number) % 4 || 1;
    });
    const { outcome } = await play({ pwd, runLimit: 15, decide }, (request) => host.handle(request));
    expect(outcome.kind).toBe('finished');
  });

  it('retries a 503 after a pause that grows, up to its longest, and gives up after maxRetries', async () => {
    const { host, pwd } = setUp();
    const pauses: number[] = [];
    let busy = 4;
    const { outcome, sent } = await play(
      {
        pwd,
        runLimit: 1,
        retry: { initialDelayMs: 3000, factor: 2, maxDelayMs: 10_000 },
        schedule: (ms, callback) => {
          pauses.push(ms);
          queueMicrotask(callback);
          return () => undefined;
        },
      },
      (request) => (busy-- > 0 ? { meta: { status: 503, headers: {} }, body: '' } : host.handle(request)),
    );
    expect(outcome.kind).toBe('finished');
    expect(pauses).toEqual([3000, 6000, 10_000, 10_000]);
    // The same request went out again each time.
    expect(new Set(sent.slice(0, 5).map((request) => request.body)).size).toBe(1);

    const stubborn = await play(
      {
        pwd,
        retry: { maxRetries: 2 },
        schedule: (_ms, callback) => (queueMicrotask(callback), () => undefined),
      },
      () => ({ meta: { status: 503, headers: {} }, body: '' }),
    );
    expect(stubborn.outcome).toEqual({
      kind: 'http-error',
      status: 503,
      message: 'the server stayed busy after 2 retries',
    });
  });

  it('stops at an error status with the error body, or the HTML page title', async () => {
    const { host } = setUp();
    const denied = await play({ pwd: 'wrong' }, (request) => host.handle(request));
    expect(denied.outcome).toEqual({
      kind: 'http-error',
      status: 401,
      message: 'Unauthorized: wrong password',
    });
    expect(denied.sent).toHaveLength(1);
    const page = await play({ pwd: 'x' }, () =>
      host.handle({ meta: { method: 'POST', path: '/act/nim' }, body: '' }),
    );
    expect(page.outcome).toEqual({
      kind: 'http-error',
      status: 405,
      message: 'HTTP 405 (405 Method Not Allowed)',
    });
  });

  it('stops when the policy fails, and when told to', async () => {
    const { host, pwd } = setUp();
    const failing = localDecide(() => {
      throw new Error('no idea');
    });
    const faulty = await play({ pwd, decide: failing }, (request) => host.handle(request));
    expect(faulty.outcome).toEqual({ kind: 'policy-error', message: 'no idea' });
    expect(faulty.sent).toHaveLength(1);

    const sent: HttpMessage[] = [];
    const client: AisysClient = new AisysClient({
      agent: 'ann',
      pwd,
      env: 'nim',
      decide: async (batch) => {
        client.stop('enough');
        return perfect(batch);
      },
    });
    const peer = client.connect({
      send: (request) => {
        sent.push(request);
        queueMicrotask(() => peer.receive(host.handle(request)));
      },
      close: () => undefined,
    });
    expect(await client.ended).toEqual({ kind: 'stopped', reason: 'enough' });
    expect(sent).toHaveLength(1);
  });

  it('refuses an answer that is not a version 1 response', async () => {
    const { pwd } = setUp();
    const { outcome } = await play({ pwd }, () => ({
      meta: { status: 200, headers: { 'content-type': 'application/json' } },
      body: '{"action_requests": []}',
    }));
    expect(outcome.kind).toBe('protocol-error');
    expect(readResponse({ meta: {}, body: '{"action_requests": []}' })).toMatchObject({ kind: 'unreadable' });
  });
});

/**
 * The host's answers, until a client has sent 100 requests: then a 401 ends it, so a client that floods
 * the server fails a test instead of looping in it for ever.
 */
function unlessFlooded(host: AisysHost): (request: HttpMessage) => HttpMessage {
  let requests = 0;
  return (request) =>
    ++requests > 100
      ? {
          meta: { status: 401, headers: { 'content-type': 'application/json' } },
          body: '{"errorcode": 401, "errorname": "Unauthorized", "description": "flooded"}',
        }
      : host.handle(request);
}

describe('actions that cannot be written as JSON', () => {
  const circular: Record<string, unknown> = { take: 1 };
  circular.self = circular;
  it.each([
    ['NaN', NaN, 'NaN'],
    ['Infinity', Infinity, 'Infinity'],
    ['-Infinity', -Infinity, '-Infinity'],
    ['undefined', undefined, 'undefined (act returned nothing; return null to send null)'],
    ['a bigint', 3n, '3n (the bigint 3n)'],
    ['a function', function take() {}, '[Function take] (a function)'],
    ['a NaN inside', { take: [1, NaN] }, '{ take: [ 1, NaN ] } (NaN at .take[1])'],
    ['a cycle', circular, '{ take: 1, self: [Circular] } (a circular reference at .self)'],
    ['a Map', new Map(), 'Map(0) {} (an object of class Map)'],
  ])('%s is a policy error naming the run and the value, and is never sent', async (_name, action, shown) => {
    const { host, pwd } = setUp();
    const decide = localDecide(() => action as never);
    const { outcome, sent } = await play({ pwd, decide }, unlessFlooded(host));
    expect(outcome).toEqual({
      kind: 'policy-error',
      message: `the action for run 1 (act_no 0) cannot be written as JSON: ${shown}; it was not sent (an action is a number, a string, true, false, null, or a list or plain object of these)`,
    });
    // Only the first request (no actions yet) went out.
    expect(sent).toHaveLength(1);
    expect(bodies(sent)[0]!.actions).toEqual([]);
  });

  it('lets every JSON value through, null and -0 included', () => {
    for (const value of [null, 0, -0, 1.5, 'x', true, [], {}, { a: [null, { b: 'c' }] }, Object.create(null)])
      expect(unwritableJson(value)).toBeUndefined();
    // A hole of a sparse array, which `forEach` would skip.
    expect(unwritableJson(new Array<number>(2))).toBe('undefined at [0]');
    expect(unwritableJson({ 'a b': new Date(0) })).toBe('an object of class Date at ["a b"]');
  });
});

describe('an action the server refuses', () => {
  /** A client whose pauses are recorded and taken at once. */
  function paced(pwd: string, decide: AisysClientOptions['decide'], maxRefusals?: number) {
    const pauses: number[] = [];
    const options: Partial<AisysClientOptions> & { pwd: string } = {
      pwd,
      decide,
      parallelRuns: false,
      ...(maxRefusals ? { maxRefusals } : {}),
      schedule: (ms, callback) => {
        pauses.push(ms);
        queueMicrotask(callback);
        return () => undefined;
      },
    };
    return { options, pauses };
  }

  it('given again unchanged, is sent after the pauses of a busy server, then given up', async () => {
    const { host, pwd } = setUp();
    const { options, pauses } = paced(
      pwd,
      localDecide(() => 5),
      4,
    );
    const { outcome, sent, events } = await play(options, unlessFlooded(host));
    expect(outcome).toEqual({
      kind: 'policy-error',
      message:
        'the server refused the action 5 for run 1 (act_no 0) 4 times in a row (You have to remove 1, 2, or 3 objects), and the policy gives it again: stopping instead of sending it forever',
    });
    // The first request, the action, then three resends, each after a longer pause.
    expect(sent).toHaveLength(5);
    expect(pauses).toEqual([3000, 6000, 12_000]);
    expect(events.filter((event) => event.kind === 'refused-again')).toEqual([
      { kind: 'refused-again', run: '1', actNo: 0, action: '5', refusals: 1, delayMs: 3000 },
      { kind: 'refused-again', run: '1', actNo: 0, action: '5', refusals: 2, delayMs: 6000 },
      { kind: 'refused-again', run: '1', actNo: 0, action: '5', refusals: 3, delayMs: 12_000 },
    ]);
  });

  it('stops after ten refusals by default, the pauses growing up to 30 s', async () => {
    const { host, pwd } = setUp();
    const { options, pauses } = paced(
      pwd,
      localDecide(() => null),
    );
    const { outcome, sent } = await play(options, unlessFlooded(host));
    expect(outcome.kind).toBe('policy-error');
    expect(sent).toHaveLength(11);
    expect(pauses).toEqual([3000, 6000, 12_000, 24_000, 30_000, 30_000, 30_000, 30_000, 30_000]);
  });

  it('answered with another action, is sent at once, as the course client sends it', async () => {
    const { host, pwd } = setUp();
    let tries = 0;
    const { options, pauses } = paced(
      pwd,
      // Every action is refused once, then perfect play.
      localDecide((percept) => (tries++ % 2 === 0 ? 7 : (percept as number) % 4 || 1)),
    );
    const { outcome } = await play({ ...options, runLimit: 3 }, unlessFlooded(host));
    expect(outcome.kind).toBe('finished');
    expect(pauses).toEqual([]);
  });
});
