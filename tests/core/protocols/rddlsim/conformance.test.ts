/**
 * The emulated server against the real one: the recorded client bytes of every session are replayed into
 * the host (chunk by chunk, at their recorded times), and what the host answers must be what rddlsim's
 * server answered. With rddlsim's own random generator and quirks the answers are identical except for
 * time-left; with Protoplay's generator they have the same structure (same elements, same fluents in the
 * same order), and equal values where nothing random is involved.
 */
import { describe, expect, it } from 'vitest';
import { loadRddl } from '../../../../src/core/envs/rddl';
import type { RddlModel } from '../../../../src/core/envs/rddl/api';
import { parseServerMessage } from '../../../../src/core/protocols/rddlsim/codec';
import {
  RddlsimHost,
  rddlsimTaskText,
  type HostedInstance,
  type RddlsimHostOptions,
} from '../../../../src/core/protocols/rddlsim/host';
import { EmulatedSession } from '../../../../src/core/protocols/rddlsim/session';
import { createLocalPolicy } from '../../../../src/core/protocols/rddlsim/session-policy';
import { readRecordFile } from '../../../../src/core/transcript/record-import';
import { EDGE_CASES, MAIN_SESSIONS, loadRecording, rddlText, recordingBytes } from './recordings';

const models = new Map<string, { model: RddlModel; task: string }>();

/** The instances the recordings ask for, loaded with the real RDDL environment from the shared files. */
function instance(problem: string): { model: RddlModel; task: string } | undefined {
  if (models.has(problem)) return models.get(problem);
  let sources: { name: string; text: string }[];
  let task: string;
  if (problem.startsWith('probe_')) {
    const text = rddlText('conformance/rddlsim/testdomains/probe_mdp.rddl');
    sources = [{ name: 'probe_mdp.rddl', text }];
    task = rddlsimTaskText(text, text);
  } else {
    const match = /^(.*)_inst_(mdp|pomdp)__\d+$/.exec(problem);
    if (!match) return undefined;
    const domainFile = `rddl/ippc2011/${match[1]}_${match[2]}.rddl`;
    const instanceFile = `rddl/ippc2011/${problem}.rddl`;
    sources = [
      { name: domainFile, text: rddlText(domainFile) },
      { name: instanceFile, text: rddlText(instanceFile) },
    ];
    task = rddlsimTaskText(sources[0]!.text, sources[1]!.text);
  }
  const loaded = { model: loadRddl(sources, { instance: problem }), task };
  models.set(problem, loaded);
  return loaded;
}

/** How the real server was started for each recording (recordings' README), beyond what session-init shows. */
const SERVER_SETUP: Record<string, Partial<RddlsimHostOptions> & { unreadableTask?: boolean }> = {
  'edge-cases/execute_policy': { monitorExecution: true },
  'edge-cases/rddl2_domainfile': { unreadableTask: true },
};

interface Replay {
  /** Server messages the host sent, time-left values blanked. */
  sent: string[];
  /** The host closed the connection before the client's close reached it. */
  closedFirst: boolean;
  /** How many messages the host had sent before the client's last message reached it. */
  sentBeforeLastClientMessage: number;
}

const blankTimes = (text: string) => text.replace(/<time-left>[^<]*<\/time-left>/g, '<time-left/>');

/** Replays a recording's client side into a fresh host set up as the real server was. */
function replay(name: string, generator: 'rddlsim' | 'protoplay'): Replay {
  const recorded = loadRecording(name).messages;
  const init = recorded.find(
    (m) => m.dir === 's2c' && m.kind === 'data' && m.text?.includes('<session-init>'),
  );
  const parsedInit = init ? parseServerMessage(init.text!.replace(/^[^<]*/, '')) : undefined;
  const setup = SERVER_SETUP[name] ?? {};
  let clock = 0;
  const host = new RddlsimHost({
    rounds: parsedInit?.type === 'session-init' ? parsedInit.numRounds : 2,
    timeLimitSeconds: parsedInit?.type === 'session-init' ? parsedInit.timeAllowed / 1000 : 1080,
    rddlsimQuirks: generator === 'rddlsim',
    generator,
    now: () => clock,
    resolveInstance: (problem): HostedInstance | undefined => {
      const found = instance(problem);
      return found && { model: found.model, task: setup.unreadableTask ? null : found.task };
    },
    ...setup,
  });
  // Sessions recorded on a server that had served others before get their session id, and its seed.
  for (let id = 1; id < (parsedInit?.type === 'session-init' ? parsedInit.sessionId : 1); id++) host.accept();
  const connection = host.accept();
  const result: Replay = { sent: [], closedFirst: false, sentBeforeLastClientMessage: 0 };
  for (const record of readRecordFile(recordingBytes(`${name}.transcript`), name)) {
    if (record.dir !== 'c2s') continue;
    clock = record.ms;
    if (record.kind === 'close' && connection.closed) result.closedFirst = true;
    if (record.kind === 'data') result.sentBeforeLastClientMessage = result.sent.length;
    const effects = record.kind === 'data' ? connection.receive(record.bytes!) : connection.clientClosed();
    for (const effect of effects) if (effect.kind === 'send') result.sent.push(blankTimes(effect.text));
  }
  return result;
}

/**
 * What the real server did in the recording. A probe that hung up right after session-end could not see
 * the server close, but rddlsim always closes after session-end, so that counts as closing first.
 */
function recordedServer(name: string): { sent: string[]; closedFirst: boolean } {
  const messages = loadRecording(name).messages;
  const sent = messages.filter((m) => m.dir === 's2c' && m.kind === 'data').map((m) => blankTimes(m.text!));
  const serverClose = messages.findIndex((m) => m.dir === 's2c' && m.kind === 'close');
  const clientClose = messages.findIndex((m) => m.dir === 'c2s' && m.kind === 'close');
  const sawClose = serverClose >= 0 && (clientClose < 0 || serverClose < clientClose);
  return { sent, closedFirst: sawClose || /<session-end>/.test(sent.at(-1) ?? '') };
}

/** Element names, fluent names and arguments, without values. */
function structure(text: string): string {
  return text.replace(/>([^<]*)</g, (whole, content: string, offset: number, all: string) => {
    const open = all.lastIndexOf('<', offset);
    const element = /^<([\w-]+)/.exec(all.slice(open))?.[1];
    return element === 'fluent-name' || element === 'fluent-arg' ? whole : '><';
  });
}

describe('host against the recorded real server', () => {
  it.each(MAIN_SESSIONS)('answers the Java client of %s exactly as rddlsim did (time-left aside)', (name) => {
    const ours = replay(name, 'rddlsim');
    const real = recordedServer(name);
    expect(ours.sent).toEqual(real.sent);
    expect(ours.closedFirst).toBe(real.closedFirst);
  });

  it.each(MAIN_SESSIONS)('answers %s with the same structure using its own random numbers', (name) => {
    const ours = replay(name, 'protoplay');
    const real = recordedServer(name);
    expect(ours.sent.map(structure)).toEqual(real.sent.map(structure));
    // Session-init (the task) and round-init carry no random values.
    expect(ours.sent.filter((t) => /<session-init>|<round-init>/.test(t))).toEqual(
      real.sent.filter((t) => /<session-init>|<round-init>/.test(t)),
    );
  });

  it('replays game_of_life under noop value for value with its own random numbers on deterministic parts', () => {
    const ours = replay('game_of_life_inst_mdp__1', 'protoplay').sent;
    const real = recordedServer('game_of_life_inst_mdp__1').sent;
    // The first turn of each round is the instance's initial state: no randomness yet.
    const firstTurns = (texts: string[]) => texts.filter((t) => t.includes('<turn-num>1</turn-num>'));
    expect(firstTurns(ours)).toEqual(firstTurns(real));
    expect(firstTurns(ours)).toHaveLength(2);
  });

  it.each(EDGE_CASES)('ends edge case %s as the real server ended it', (name) => {
    const ours = replay(`edge-cases/${name}`, 'rddlsim');
    const real = recordedServer(`edge-cases/${name}`);
    // A probe that hung up right after its last message did not record the answer to it; the host answers.
    expect(ours.sent.slice(0, real.sent.length)).toEqual(real.sent);
    if (ours.sent.length > real.sent.length)
      expect(real.sent.length).toBeGreaterThanOrEqual(ours.sentBeforeLastClientMessage);
    expect(ours.closedFirst).toBe(real.closedFirst);
  });
});

describe('emulated session against the real server', () => {
  it('scores a noop session on sysadmin 1 exactly as rddlsim does with its generator (218.0 in round 1)', async () => {
    const { model, task } = instance('sysadmin_inst_mdp__1')!;
    const session = new EmulatedSession({
      model,
      task,
      policy: createLocalPolicy(() => null, { info: model.info }),
      rounds: 1,
      rddlsimQuirks: true,
      generator: 'rddlsim',
      recordWorld: false,
    });
    expect(await session.run()).toBe('finished');
    // The recorded number_format session is this very session (noop, seed 0, session 1).
    const real = recordedServer('edge-cases/number_format').sent;
    const ours = session.transcript.messages
      .filter((m) => m.dir === 's2c' && m.kind === 'data')
      .map((m) => blankTimes(m.text!));
    const withoutName = (text: string) => text.replace(/<client-name>[^<]*<\/client-name>/, '<client-name/>');
    expect(ours.slice(1).map(withoutName)).toEqual(real.slice(1).map(withoutName));
    expect(session.rounds[0]!.reward).toBe(218);
  });
});
