/**
 * The client against the emulated server in memory: the run limit as the course client counts it, one run
 * at a time, abandoning old runs, per-run memory, 503 retries with a growing pause, and how errors, policy
 * faults and `stop` end it.
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
import { readResponse } from '../../../../src/core/protocols/aisys/codec';

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
