import { describe, expect, it } from 'vitest';
import { validate } from '../../../../src/core/protocols/machine';
import { rddlsimClientMachine } from '../../../../src/core/protocols/rddlsim/client-machine';
import type { ActFunction } from '../../../../src/core/protocols/rddlsim/policy-api';
import { rddlsimServerMachine } from '../../../../src/core/protocols/rddlsim/server-machine';
import { EmulatedSession, type EmulatedSessionOptions } from '../../../../src/core/protocols/rddlsim/session';
import { createLocalPolicy, type SessionPolicy } from '../../../../src/core/protocols/rddlsim/session-policy';
import type { CallOutcome } from '../../../../src/core/policy/types';
import type { Transcript } from '../../../../src/core/transcript/model';
import { createProbeModel } from './probe-model';

const model = createProbeModel();

function session(act: ActFunction, options: Partial<EmulatedSessionOptions> = {}) {
  let clock = 0;
  return new EmulatedSession({
    model,
    task: 'domain\n\ninstance\n',
    policy: createLocalPolicy(act, { info: model.info }),
    rounds: 2,
    now: () => (clock += 1),
    ...options,
  });
}

const types = (transcript: Transcript) =>
  transcript.messages.map((m) =>
    m.kind === 'data' ? /<([a-z-]+)/.exec(m.text!.replace(/^<\?xml[^>]*>\n/, ''))![1] : m.kind,
  );
const annotations = (transcript: Transcript, type: string) =>
  transcript.annotations.filter((a) => a.type === type);

describe('EmulatedSession', () => {
  it('plays a whole session over the in-memory pipe and records every message', async () => {
    const run = session(() => ({ name: 'inc', value: 1 }));
    expect(await run.run()).toBe('finished');
    const { transcript } = run;
    expect(types(transcript)).toEqual([
      'session-request',
      'session-init',
      ...Array.from({ length: 2 }, () => [
        'round-request',
        'round-init',
        'turn',
        ...Array.from({ length: 3 }, () => ['actions', 'turn']).flat(),
        'actions',
        'round-end',
      ]).flat(),
      'session-end',
      'close',
      'close',
    ]);
    expect(transcript.messages.map((m) => m.dir).slice(0, 3)).toEqual(['c2s', 's2c', 'c2s']);
    // count 1..4 each round: 1 + 2 + 3 + 4.
    expect(run.rounds).toEqual([
      { round: 1, reward: 10, turns: 4, counted: true },
      { round: 2, reward: 10, turns: 4, counted: true },
    ]);
    expect(run.totalReward).toBe(20);
    expect(validate(rddlsimClientMachine, transcript.messages).violations).toEqual([]);
    expect(validate(rddlsimServerMachine, transcript.messages).violations).toEqual([]);
    expect(transcript.meta).toMatchObject({
      source: 'emulated',
      instance: 'probe_inst_1',
      seed: 0,
      rounds: 2,
    });
  });

  it('steps one decision at a time', async () => {
    const run = session(() => null);
    const first = await run.step();
    expect(first.status).toBe('waiting');
    expect(first.observation).toMatchObject({ round: 1, turn: 1, reward: 0 });
    expect(types(run.transcript).at(-1)).toBe('turn');
    const second = await run.step();
    expect(second.observation).toMatchObject({ round: 1, turn: 2, reward: 1 });
    for (let i = 0; i < 2; i++) await run.step();
    const boundary = await run.step();
    expect(boundary.roundsEnded).toEqual([{ round: 1, reward: 4, turns: 4, counted: true }]);
    expect(boundary.observation).toMatchObject({ round: 2, turn: 1 });
  });

  it('records the true world at every turn and the rewards of steps, rounds and the session', async () => {
    const run = session(() => ({ name: 'toggle', args: ['a'] }), { rounds: 1 });
    await run.run();
    const { transcript } = run;
    const worlds = annotations(transcript, 'world');
    expect(worlds).toHaveLength(4);
    for (const world of worlds) expect(transcript.messages[world.index]!.text).toContain('<turn>');
    expect(worlds[1]!.data).toMatchObject({
      round: 1,
      turn: 2,
      state: expect.arrayContaining([{ name: 'flag', args: ['a'], value: true, valueType: 'bool' }]),
    });
    const rewards = annotations(transcript, 'reward').map((a) => a.data);
    expect(rewards).toEqual([
      { kind: 'step', round: 1, turn: 1, reward: 1 },
      { kind: 'step', round: 1, turn: 2, reward: 2.5 },
      { kind: 'step', round: 1, turn: 3, reward: 1 },
      { kind: 'step', round: 1, turn: 4, reward: 2.5 },
      { kind: 'round', round: 1, reward: 7, turns: 4, counted: true },
      { kind: 'total', reward: 7, rounds: 1 },
    ]);
  });

  it('records policy logs on the turn they answer', async () => {
    const run = session(
      (observation, context) => {
        context.log('seen', observation.values.count);
        return null;
      },
      { rounds: 1 },
    );
    await run.run();
    const logs = annotations(run.transcript, 'policy-log');
    expect(logs[0]).toMatchObject({ data: { level: 'log', text: 'seen 1', round: 1, turn: 1 } });
    expect(run.transcript.messages[logs[0]!.index]!.text).toContain('<turn-num>1</turn-num>');
  });

  it('reports invalid actions before sending, sends a noop instead, and goes on', async () => {
    const run = session(
      () => [
        { name: 'reboot', args: ['c1'] },
        { name: 'inc', value: 1 },
      ],
      { rounds: 1 },
    );
    expect(await run.run()).toBe('finished');
    const errors = annotations(run.transcript, 'error');
    expect(errors).toHaveLength(4);
    expect(errors[0]!.data).toMatchObject({
      source: 'actions',
      message: expect.stringMatching(/^not sent: unknown action 'reboot'/),
    });
    expect(run.transcript.messages[errors[0]!.index]!.text).toContain('<action-name>inc</action-name>');
  });

  it('can send invalid actions anyway, and shows what the real server would do', async () => {
    const run = session(() => ({ name: 'count', value: 0 }), { sendInvalidActions: true });
    expect(await run.run()).toBe('finished');
    const notes = annotations(run.transcript, 'note').map((a) => (a.data as { code: string }).code);
    expect(notes).toEqual(['rddlsim.host.process-exit']);
    const violations = annotations(run.transcript, 'violation');
    expect(violations.map((a) => a.data)).toEqual([
      expect.objectContaining({ role: 'client', rule: 'rddlsim.connection.closed-early' }),
    ]);
    const closing = run.transcript.messages[violations[0]!.index]!;
    expect([closing.kind, closing.dir]).toEqual(['close', 's2c']);
    expect(types(run.transcript).slice(-3)).toEqual(['actions', 'close', 'close']);
  });

  it('keeps going after a policy fault (noop) and records it on the turn', async () => {
    const run = session(
      (observation) => {
        if (observation.turn === 2) throw new Error('boom');
        return { name: 'inc', value: 1 };
      },
      { rounds: 1 },
    );
    expect(await run.run()).toBe('finished');
    const [fault] = annotations(run.transcript, 'error');
    expect(fault!.data).toMatchObject({ source: 'policy', kind: 'call', message: 'boom', round: 1, turn: 2 });
    expect(run.transcript.messages[fault!.index]!.text).toContain('<turn-num>2</turn-num>');
    expect(run.rounds[0]!.reward).toBe(1 + 2 + 2 + 3);
  });

  it('stops cleanly on a policy fault when asked, keeping everything recorded', async () => {
    const timeout: SessionPolicy = {
      act: async (observation): Promise<CallOutcome> =>
        observation.turn < 3
          ? { ok: true, value: null, logs: [], ms: 1 }
          : {
              ok: false,
              fault: { kind: 'timeout', message: 'policy exceeded 1000 ms on round 1, turn 3' },
              logs: [],
              ms: 1000,
            },
    };
    const run = session(() => null, { policy: timeout, onPolicyFault: 'stop' });
    expect(await run.run()).toBe('stopped');
    expect(types(run.transcript).slice(-4)).toEqual(['actions', 'turn', 'close', 'close']);
    const notes = annotations(run.transcript, 'note').map((a) => (a.data as { message: string }).message);
    expect(notes[0]).toBe('the policy failed on round 1, turn 3: policy exceeded 1000 ms on round 1, turn 3');
    expect(notes[1]).toMatch(/client closed the connection/);
  });

  it('stops when asked between steps', async () => {
    const run = session(() => null);
    await run.step();
    run.stop();
    expect(run.status).toBe('stopped');
    expect(types(run.transcript).slice(-2)).toEqual(['close', 'close']);
    expect((await run.step()).status).toBe('stopped');
  });

  it('reports a stop as what happened, not as a broken rule of either side', async () => {
    for (const steps of [1, 3]) {
      const run = session(() => null);
      for (let i = 0; i < steps; i++) await run.step();
      run.stop();
      const notes = annotations(run.transcript, 'note').map((a) => (a.data as { code: string }).code);
      expect(notes).toContain('rddlsim.session.stopped');
      expect(annotations(run.transcript, 'violation')).toEqual([]);
    }
  });

  it('reports a policy failure as what happened, not as a broken rule', async () => {
    const failing: SessionPolicy = {
      act: async (): Promise<CallOutcome> => ({
        ok: false,
        fault: { kind: 'call', message: 'boom' },
        logs: [],
        ms: 1,
      }),
    };
    const run = session(() => null, { policy: failing, onPolicyFault: 'stop' });
    expect(await run.run()).toBe('stopped');
    expect(annotations(run.transcript, 'error')).toHaveLength(1);
    expect(annotations(run.transcript, 'violation')).toEqual([]);
  });

  it('reports invalid actions sent anyway, and the server closing on them, without a broken rule', async () => {
    const run = session(() => ({ name: 'nosuch', value: 3 }), { sendInvalidActions: true });
    await run.run();
    expect(annotations(run.transcript, 'error')[0]?.data).toMatchObject({ source: 'actions' });
    const notes = annotations(run.transcript, 'note').map(
      (a) => (a.data as { realServer?: string }).realServer,
    );
    expect(notes).toContain('closes-connection');
    expect(annotations(run.transcript, 'violation')).toEqual([]);
  });

  it('calls the policy hooks at round and session boundaries', async () => {
    const calls: string[] = [];
    const base = createLocalPolicy(() => null, { info: model.info });
    const policy: SessionPolicy = {
      act: base.act,
      hook: async (name, args) => {
        calls.push(`${name}:${JSON.stringify(args[0])}`);
        return { ok: true, value: undefined, logs: [], ms: 0 };
      },
    };
    await session(() => null, { policy, rounds: 1 }).run();
    expect(calls).toEqual([
      'onRoundStart:1',
      'onRoundEnd:{"round":1,"reward":4,"turns":4,"counted":true}',
      'onSessionEnd:{"totalReward":4,"rounds":[{"round":1,"reward":4,"turns":4,"counted":true}]}',
    ]);
  });

  it('gives identical wire messages for the same seed, policy and server clock', async () => {
    const texts = async () => {
      const run = session((_, context) => ({ name: 'inc', value: Math.floor(context.random() * 3) }), {
        serverClock: () => 0,
      });
      await run.run();
      return run.transcript.messages.map((m) => m.text);
    };
    expect(await texts()).toEqual(await texts());
  });

  it('plays no-header mode end to end', async () => {
    const run = session(() => null, { noHeader: true, rounds: 1 });
    expect(await run.run()).toBe('finished');
    const server = run.transcript.messages.filter((m) => m.kind === 'data' && m.dir === 's2c');
    expect(server.every((m) => m.framing === 'none' && !m.text!.startsWith('<?xml'))).toBe(true);
    expect(validate(rddlsimClientMachine, run.transcript.messages).violations).toEqual([]);
  });
});
