/**
 * A recorded rddlsim session played again against the emulated server: the recording's client messages
 * are fed, in order, to a fresh `RddlsimHost` serving the task the recording's session-init carried (its
 * domain and instance text), with the rounds it announced, rddlsim's own random generator and its quirks,
 * and the server messages the emulator answers are compared with the recorded ones. The first one that
 * differs is where the emulator and the real server part ways (or where the recording was changed).
 *
 * What is compared is the text of each server message, with the session's remaining time (`<time-left>`,
 * a clock) left out.
 */
import { loadRddl } from '../../envs/rddl/load';
import { ProtoplayError } from '../../errors';
import type { Transcript } from '../../transcript/model';
import { ReplayPacer, type ReplayWatch } from '../replay';
import { decodeTask } from './client';
import { encodeFrame } from './framing';
import { RddlsimHost, rddlsimTaskRddl } from './host';

/** Where the emulator's answer first differs from the recording's. */
export interface HostReplayDifference {
  /** Transcript index of the recorded server message (undefined: the recording has no more). */
  recordedIndex: number | undefined;
  /** Transcript index of the last client message fed before it (undefined: none yet). */
  afterClientIndex: number | undefined;
  /** The recorded text and the emulator's (undefined where that side sent nothing more). */
  recorded: string | undefined;
  emulated: string | undefined;
}

/** What the replay found. */
export interface HostReplayResult {
  instance: string;
  rounds: number;
  /** The server's seed: session k simulated with seed + k - 1. */
  seed: number;
  /** The recorded session's id (the real server counts sessions from 1 for as long as it runs). */
  sessionId: number;
  /** Server messages that agreed before the first difference (all of them when there is none). */
  agreed: number;
  difference: HostReplayDifference | undefined;
}

const sameClock = (text: string) => text.replace(/<time-left>[^<]*<\/time-left>/g, '<time-left/>');

/**
 * Replays the first session of `transcript` against the emulated server. Throws a ProtoplayError when the
 * recording does not say what it played (no session-init with a task) or its task does not compile.
 */
export async function replayOnEmulatedHost(
  transcript: Transcript,
  options: { seed?: number } = {},
  watch?: ReplayWatch,
): Promise<HostReplayResult> {
  const data = transcript.messages.filter((m) => m.kind === 'data' && m.text !== undefined);
  const init = data.find((m) => m.dir === 's2c' && m.text!.includes('<session-init>'));
  const task = init && /<task>([^<]*)<\/task>/.exec(init.text!)?.[1];
  if (!init || !task)
    throw new ProtoplayError(
      'rddlsim.replay.no-task',
      'the recording has no session-init with a task: it does not say which domain and instance it played',
    );
  const text = decodeTask(task);
  if (text === undefined)
    throw new ProtoplayError(
      'rddlsim.replay.task',
      `the session-init's task (message ${init.index}) is not base64 text`,
    );
  const model = loadRddl([{ name: `task of message ${init.index}`, text: rddlsimTaskRddl(text) }]);
  const rounds = Number(/<num-rounds>\s*(\d+)\s*</.exec(init.text!)?.[1] ?? 30);
  // The server's k-th session since it started has id k and simulates with seed + k - 1: the replay is
  // that session. A Protoplay recording carries the session's own seed; a seed given for a recording
  // without one is the server's (rddlsim's seed argument).
  const sessionId = Number(/<session-id>\s*(\d+)\s*</.exec(init.text!)?.[1] ?? 1) || 1;
  const recordedSeed = transcript.meta.seed;
  const seed = options.seed ?? (typeof recordedSeed === 'number' ? recordedSeed - (sessionId - 1) : 0);
  const host = new RddlsimHost({
    resolveInstance: (name) => (name === model.info.instance ? { model, task: text } : undefined),
    rounds,
    seed,
    firstSessionId: sessionId,
    generator: 'rddlsim',
    rddlsimQuirks: true,
  });
  const connection = host.accept();
  const session = data.filter((m) => m.conn === init.conn);
  const recorded = session.filter((m) => m.dir === 's2c');
  let agreed = 0;
  let lastClient: number | undefined;
  const compare = (emulated: string): HostReplayDifference | undefined => {
    const expected = recorded[agreed];
    if (expected && sameClock(expected.text!) === sameClock(emulated)) {
      agreed++;
      return undefined;
    }
    return {
      recordedIndex: expected?.index,
      afterClientIndex: lastClient,
      recorded: expected?.text,
      emulated,
    };
  };
  const result = (difference: HostReplayDifference | undefined): HostReplayResult => ({
    instance: model.info.instance,
    rounds,
    seed,
    sessionId,
    agreed,
    difference,
  });
  const pacer = new ReplayPacer(session.length, watch);
  for (const [position, message] of session.entries()) {
    if (pacer.due()) await pacer.pause(position);
    if (message.dir !== 'c2s') continue;
    lastClient = message.index;
    const bytes = encodeFrame(message.text!, message.framing === 'none' ? 'none' : 'nul');
    for (const effect of connection.receive(bytes)) {
      if (effect.kind !== 'send') continue;
      const difference = compare(effect.text);
      if (difference) return result(difference);
    }
  }
  pacer.finish();
  const missing = recorded[agreed];
  return result(
    missing
      ? {
          recordedIndex: missing.index,
          afterClientIndex: lastClient,
          recorded: missing.text,
          emulated: undefined,
        }
      : undefined,
  );
}
