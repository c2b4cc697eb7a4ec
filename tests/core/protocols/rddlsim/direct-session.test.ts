/**
 * A session played directly on the simulator (`DirectSession`) against the same session played through
 * its XML messages (`EmulatedSession`): on every IPPC instance of the shared folder, the policy must see
 * the same observations (values, rewards, time left), the same rounds must end with the same rewards,
 * the hooks must be called alike, and both simulators must be left with the same random numbers.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RddlLibrary } from '../../../../cli/protocols/rddlsim/rddl-library';
import type { RddlModel, RddlSimulator } from '../../../../src/core/envs/rddl/api';
import type { CallOutcome } from '../../../../src/core/policy/types';
import {
  DirectSession,
  directSessionFallback,
  openSession,
} from '../../../../src/core/protocols/rddlsim/direct-session';
import type { Action, ActFunction, Observation } from '../../../../src/core/protocols/rddlsim/policy-api';
import { EmulatedSession, type EmulatedSessionOptions } from '../../../../src/core/protocols/rddlsim/session';
import { createLocalPolicy, type SessionPolicy } from '../../../../src/core/protocols/rddlsim/session-policy';
import { sharedPath } from '../../../cli/shared-folder';

const FOLDERS = ['rddl/ippc2011', 'rddl/ippc2014'];

/** Every instance of the shared IPPC folders, with the folder's library. */
const libraries = await Promise.all(
  FOLDERS.map(async (folder) => {
    const dir = sharedPath(folder);
    return { dir, library: await RddlLibrary.fromServerDirectory(dir, { cwd: dir, mode: 'lenient' }) };
  }),
);
const INSTANCES = libraries.flatMap(({ dir, library }) =>
  readdirSync(dir)
    .filter((file) => /_inst_/.test(file))
    .map((file) => ({ name: file.replace(/\.rddl$/, ''), library })),
);

/**
 * A policy that reads everything it is shown and answers with 0 to 3 actions drawn from every grounding
 * of every action fluent (bool, int, real, enum and object values), now and then a name that does not
 * exist: its answers cover noops, legal moves, too many actions (the round ends), preconditions and
 * dropped actions. It logs what it saw, so both sessions can be compared turn by turn.
 */
function probingPolicy(model: RddlModel, seen: unknown[], seed: number, inProcess: boolean): SessionPolicy {
  const act: ActFunction = (observation, context) => {
    seen.push(JSON.parse(JSON.stringify(observation)));
    const actions: Action[] = [];
    const count = Math.floor(context.random() * 4);
    const fluents = context.instance.actions;
    for (let i = 0; i < count && fluents.length > 0; i++) {
      const fluent = fluents[Math.floor(context.random() * fluents.length)]!;
      const args = fluent.params.map((type) => {
        const values = context.instance.objects[type] ?? [];
        return values[Math.floor(context.random() * values.length)] ?? '?';
      });
      const value =
        fluent.range === 'bool'
          ? context.random() < 0.8
          : fluent.range === 'int'
            ? Math.floor(context.random() * 5) - 1
            : fluent.range === 'real'
              ? Math.round(context.random() * 40) / 8
              : (fluent.values?.[Math.floor(context.random() * fluent.values.length)] ?? '?');
      actions.push({ name: context.random() < 0.05 ? 'no-such-action' : fluent.name, args, value });
    }
    seen.push(actions);
    return actions;
  };
  const local = createLocalPolicy(act, { info: model.info, seed });
  return {
    // In process, the direct session's observations decode their fluents when read; otherwise at once.
    inProcess,
    act: local.act,
    hook: async (name, args, site): Promise<CallOutcome> => {
      seen.push({ hook: name, args: JSON.parse(JSON.stringify(args)), site });
      return { ok: true, value: undefined, logs: [], ms: 0 };
    },
  };
}

/** The model, with each simulator it creates kept, to check its random numbers afterwards. */
function watchedModel(model: RddlModel): { model: RddlModel; simulators: RddlSimulator[] } {
  const simulators: RddlSimulator[] = [];
  const watched: RddlModel = {
    info: model.info,
    findFluent: (name) => model.findFluent(name),
    typeValues: (type) => model.typeValues(type),
    createSimulator: (options) => {
      const simulator = model.createSimulator(options);
      simulators.push(simulator);
      return simulator;
    },
  };
  return { model: watched, simulators };
}

/** A clock that moves one millisecond each time it is read: both sessions must read it alike. */
function tickingClock(step = 1): () => number {
  let now = 1_000_000;
  return () => (now += step);
}

interface Played {
  seen: unknown[];
  rounds: unknown[];
  status: string;
  totalReward: number | undefined;
  lastNote: string | undefined;
  /** Rewards of a few more steps from the simulator the session left: its random numbers go on alike. */
  after: number[];
}

async function play(
  kind: 'wire' | 'direct',
  base: Omit<EmulatedSessionOptions, 'policy' | 'model'> & { model: RddlModel },
  policySeed = 3,
  stopAfterTurns?: number,
  inProcess = true,
): Promise<Played> {
  const seen: unknown[] = [];
  const { model, simulators } = watchedModel(base.model);
  const options: EmulatedSessionOptions = {
    ...base,
    model,
    policy: probingPolicy(base.model, seen, policySeed, inProcess),
    keepTranscript: false,
    recordWorld: false,
    serverClock: tickingClock(base.timeLimitSeconds === 1 ? 100 : 1),
  };
  const session = kind === 'wire' ? new EmulatedSession(options) : new DirectSession(options);
  const rounds: unknown[] = [];
  let turns = 0;
  while (session.status === 'ready' || session.status === 'waiting') {
    if (stopAfterTurns !== undefined && turns++ === stopAfterTurns) session.stop('enough');
    else rounds.push(...(await session.step()).roundsEnded);
  }
  const simulator = simulators[0]!;
  const after: number[] = [];
  simulator.reset();
  for (let i = 0; i < 3; i++) {
    const outcome = simulator.step([]);
    after.push(outcome.kind === 'ok' ? outcome.reward : NaN);
  }
  return {
    seen,
    rounds,
    status: session.status,
    totalReward: session.totalReward,
    lastNote: session.lastNote,
    after,
  };
}

describe('a session played directly equals the session played through its messages', () => {
  it('covers every IPPC instance of the shared folder', () => {
    expect(INSTANCES.length).toBeGreaterThanOrEqual(32);
  });

  it.each(INSTANCES)('$name: two rounds', async ({ name, library }) => {
    const { model, task } = library.load(name);
    const base = { model, task, rounds: 2, seed: 5 };
    const wire = await play('wire', base);
    const direct = await play('direct', base);
    expect(wire.seen.length).toBeGreaterThan(4);
    expect(direct).toEqual(wire);
    // Equal also means the same numbers: -0 and 0 differ on the wire.
    expect(Object.is(direct.totalReward, wire.totalReward)).toBe(true);
  });

  const LONGER = [
    'sysadmin_inst_mdp__1',
    'elevators_inst_mdp__1',
    'crossing_traffic_inst_pomdp__1',
    'navigation_inst_mdp__1',
    'wildfire_inst_mdp__1',
  ];
  it.each(LONGER)(
    "%s: twelve rounds with rddlsim's random numbers and quirks, and with Protoplay's",
    async (name) => {
      const { library } = INSTANCES.find((instance) => instance.name === name)!;
      const { model, task } = library.load(name);
      for (const generator of ['rddlsim', 'protoplay'] as const) {
        const base = { model, task, rounds: 12, seed: 11, generator, rddlsimQuirks: generator === 'rddlsim' };
        const wire = await play('wire', base, 8);
        expect(wire.rounds).toHaveLength(12);
        expect(await play('direct', base, 8)).toEqual(wire);
        // A policy in a worker gets observations with every value in place.
        expect(await play('direct', base, 8, undefined, false)).toEqual(wire);
      }
    },
  );

  it('ends alike when the session time runs out, when stopped, and when the task cannot be read', async () => {
    const { library } = INSTANCES.find((instance) => instance.name === 'sysadmin_inst_mdp__1')!;
    const { model, task } = library.load('sysadmin_inst_mdp__1');
    // 100 ms per clock reading against a one-second limit: the time runs out within a few turns.
    const timed = { model, task, rounds: 10, seed: 2, timeLimitSeconds: 1 };
    const wireTimed = await play('wire', timed);
    expect(wireTimed.lastNote).toMatch(/time limit has passed/);
    expect(wireTimed.rounds.length).toBeLessThan(10);
    // The round the time ran out in says so (the host's note, read by the wire session).
    expect(wireTimed.rounds.at(-1)).toMatchObject({
      endedBy: expect.stringMatching(/time limit has passed/),
    });
    expect(await play('direct', timed)).toEqual(wireTimed);

    const stopped = { model, task, rounds: 30, seed: 2 };
    const wireStopped = await play('wire', stopped, 3, 10);
    expect(wireStopped.status).toBe('stopped');
    expect(await play('direct', stopped, 3, 10)).toEqual(wireStopped);

    const noTask = { model, task: null, rounds: 1, seed: 2 };
    const wireNoTask = await play('wire', noTask);
    expect(await play('direct', noTask)).toEqual(wireNoTask);
  });

  it('goes on or stops alike after a policy fault', async () => {
    const { library } = INSTANCES.find((instance) => instance.name === 'elevators_inst_mdp__1')!;
    const { model, task } = library.load('elevators_inst_mdp__1');
    for (const onPolicyFault of ['noop', 'stop'] as const) {
      const results = [];
      for (const kind of ['wire', 'direct'] as const) {
        let calls = 0;
        const policy: SessionPolicy = {
          act: async (observation) => {
            calls++;
            return calls % 7 === 0
              ? { ok: false, fault: { kind: 'call', message: 'boom', hook: 'act' }, logs: [], ms: 0 }
              : { ok: true, value: observation.fluents.length >= 0 ? null : [], logs: [], ms: 0 };
          },
        };
        const options: EmulatedSessionOptions = {
          model,
          task,
          policy,
          rounds: 2,
          onPolicyFault,
          keepTranscript: false,
          recordWorld: false,
          serverClock: tickingClock(),
        };
        const session = kind === 'wire' ? new EmulatedSession(options) : new DirectSession(options);
        const rounds = [];
        while (session.status === 'ready' || session.status === 'waiting')
          rounds.push(...(await session.step()).roundsEnded);
        results.push({ rounds, calls, status: session.status, total: session.totalReward });
      }
      expect(results[1]).toEqual(results[0]);
      expect(results[0]!.status).toBe(onPolicyFault === 'stop' ? 'stopped' : 'finished');
    }
  });

  it('is chosen only when nobody reads the messages, and says why not otherwise', () => {
    const { library } = INSTANCES[0]!;
    const { model, task } = library.load(INSTANCES[0]!.name);
    const policy: SessionPolicy = { act: async () => ({ ok: true, value: null, logs: [], ms: 0 }) };
    const quiet: EmulatedSessionOptions = { model, task, policy, keepTranscript: false, recordWorld: false };
    expect(directSessionFallback(quiet)).toBeUndefined();
    expect(openSession(quiet)).toBeInstanceOf(DirectSession);
    expect(openSession(quiet, { wire: true })).toBeInstanceOf(EmulatedSession);
    const cases: [Partial<EmulatedSessionOptions>, RegExp][] = [
      [{ keepTranscript: true }, /transcript/],
      [{ transcriptSink: { messageJson: () => undefined, annotationJson: () => undefined } }, /transcript/],
      [{ recordWorld: true }, /world/],
      [{ monitorExecution: true }, /monitor/],
      [{ executePolicy: 'yes' }, /execute-policy/],
      [{ noHeader: true }, /no-header/],
      [{ sendInvalidActions: true }, /invalid actions/],
    ];
    for (const [change, reason] of cases) {
      expect(directSessionFallback({ ...quiet, ...change })).toMatch(reason);
      expect(openSession({ ...quiet, ...change })).toBeInstanceOf(EmulatedSession);
      expect(() => new DirectSession({ ...quiet, ...change })).toThrow(reason);
    }
  });
});

describe('observations of a direct session', () => {
  it('show an in-process policy the fluents of their own turn, however late they are read', async () => {
    const { library } = INSTANCES.find((instance) => instance.name === 'game_of_life_inst_mdp__1')!;
    const { model, task } = library.load('game_of_life_inst_mdp__1');
    const playKeeping = async (readAtOnce: boolean) => {
      const kept: Observation[] = [];
      const values: unknown[] = [];
      const policy = createLocalPolicy(
        (observation) => {
          kept.push(observation);
          if (readAtOnce) values.push(JSON.stringify(observation.values));
          return null;
        },
        { info: model.info },
      );
      const options = { model, task, policy, rounds: 2, seed: 4, keepTranscript: false, recordWorld: false };
      await new DirectSession(options).run();
      return readAtOnce ? values : kept.map((observation) => JSON.stringify(observation.values));
    };
    const atOnce = await playKeeping(true);
    const late = await playKeeping(false);
    expect(late).toEqual(atOnce);
    // The world changes from turn to turn, so equal lists prove each turn kept its own values.
    expect(new Set(late).size).toBeGreaterThan(10);
  });

  it('write JSON with every field, as a plain observation does', async () => {
    const { library } = INSTANCES.find((instance) => instance.name === 'sysadmin_inst_mdp__1')!;
    const { model, task } = library.load('sysadmin_inst_mdp__1');
    const kept: Observation[] = [];
    const policy = createLocalPolicy((observation) => void kept.push(observation), { info: model.info });
    await new DirectSession({
      model,
      task,
      policy,
      rounds: 1,
      keepTranscript: false,
      recordWorld: false,
    }).run();
    const json = JSON.parse(JSON.stringify(kept[2])) as Observation;
    expect(Object.keys(json)).toEqual([
      'round',
      'turn',
      'reward',
      'timeLeft',
      'observed',
      'fluents',
      'values',
    ]);
    expect(json.fluents).toHaveLength(Object.keys(json.values).length);
    expect(json.fluents.length).toBeGreaterThan(0);
  });
});

describe('a session that keeps no transcript', () => {
  it('holds no message, annotation or round however long it runs, and hands a sink every record', async () => {
    const { library } = INSTANCES.find((instance) => instance.name === 'sysadmin_inst_mdp__1')!;
    const { model, task } = library.load('sysadmin_inst_mdp__1');
    const policy = createLocalPolicy(() => null, { info: model.info });
    const streamed = { messages: 0, annotations: 0 };
    const sink = {
      messageJson: () => void streamed.messages++,
      annotationJson: () => void streamed.annotations++,
    };
    const options = { model, task, policy, rounds: 25, keepTranscript: false, recordWorld: true };
    const kept = new EmulatedSession({ ...options, keepTranscript: true });
    const quiet = new EmulatedSession({ ...options, transcriptSink: sink });
    await kept.run();
    await quiet.run();
    expect(quiet.totalReward).toBe(kept.totalReward);
    expect(quiet.transcript.messages).toHaveLength(0);
    expect(quiet.transcript.annotations).toHaveLength(0);
    expect(quiet.rounds).toHaveLength(0);
    expect(quiet.recorder.messageCount).toBe(kept.transcript.messages.length);
    expect(streamed).toEqual({
      messages: kept.transcript.messages.length,
      annotations: kept.transcript.annotations.length,
    });
    expect(streamed.messages).toBeGreaterThan(25 * 40 * 2);
  });
});
