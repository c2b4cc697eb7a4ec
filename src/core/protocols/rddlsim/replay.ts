/**
 * rddlsim's part of the replay contract: `replayOnEmulatedHost` (the session-init's task served by the
 * emulated server with rddlsim's random generator and quirks) read as the common report. The replay stops
 * at the first difference: the client's later messages answer what the recorded server sent, so nothing
 * after it can be compared fairly.
 */
import { ProtoplayError } from '../../errors';
import type { ReplayReport, TranscriptReplay } from '../replay';
import { replayOnEmulatedHost } from './host-replay';

/** The rddlsim replay. */
export const rddlsimReplay: TranscriptReplay = {
  plan(transcript) {
    const init = transcript.messages.find(
      (m) => m.kind === 'data' && m.dir === 's2c' && m.text?.includes('<session-init>'),
    );
    const seed = transcript.meta.seed;
    return {
      ...(init ? { environment: 'the task its session-init carries' } : {}),
      ...(typeof seed === 'number' ? { seed } : {}),
      choices: [],
      ...(init
        ? {}
        : {
            impossible:
              'the recording has no session-init with a task: it does not say which domain and instance it played',
          }),
    };
  },

  async run(transcript, setup = {}, watch): Promise<ReplayReport> {
    const plan = rddlsimReplay.plan(transcript);
    if (plan.impossible) throw new ProtoplayError('rddlsim.replay.no-task', plan.impossible);
    const result = await replayOnEmulatedHost(
      transcript,
      plan.seed === undefined && setup.seed !== undefined ? { seed: setup.seed } : {},
      watch,
    );
    const difference = result.difference;
    const recorded =
      difference?.recordedIndex === undefined ? undefined : transcript.messages[difference.recordedIndex];
    return {
      environment: `${result.instance}, ${result.rounds} rounds`,
      environmentFrom: 'recording',
      // A recorded seed is the session's own; a chosen or default one is the server's.
      seed: plan.seed ?? result.seed,
      seedFrom: plan.seed !== undefined ? 'recording' : setup.seed !== undefined ? 'chosen' : 'default',
      compared: result.agreed + (difference ? 1 : 0),
      differing: difference ? 1 : 0,
      ...(difference
        ? {
            first: {
              recordedIndex: difference.recordedIndex,
              position: result.agreed,
              conn: recorded?.conn ?? transcript.messages.find((m) => m.kind === 'data')?.conn ?? '',
              ...(xmlDifference(difference.recorded, difference.emulated) ?? {
                path: '$',
                recorded: difference.recorded,
                emulated: difference.emulated,
              }),
              recordedText: difference.recorded,
              emulatedText: difference.emulated,
            },
          }
        : {}),
      notes: [
        ...(result.sessionId > 1
          ? [
              `the recording is the server's session ${result.sessionId}: replayed as that session, with its id and the seed ${result.seed} + ${result.sessionId - 1} it simulated with`,
            ]
          : []),
        'the session time left (<time-left>) is left out of the comparison',
        ...(difference ? ['the replay stops at the first difference: later answers depend on it'] : []),
      ],
    };
  },
};

const withoutClock = (text: string) => text.replace(/<time-left>[^<]*<\/time-left>/g, '<time-left/>');

/**
 * Where two server messages first differ, read as XML (the clock left out): the path of the elements open
 * there (`turn/immediate-reward`) and the text of that element on each side. Undefined when a side is
 * missing or the difference is inside a tag (the whole messages are then shown).
 */
export function xmlDifference(
  recorded: string | undefined,
  emulated: string | undefined,
): { path: string; recorded: string; emulated: string } | undefined {
  if (recorded === undefined || emulated === undefined) return undefined;
  const a = withoutClock(recorded);
  const b = withoutClock(emulated);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i === a.length && i === b.length) return undefined;
  const start = a.lastIndexOf('>', i - 1) + 1;
  if (a.lastIndexOf('<', i - 1) >= start) return undefined;
  const open: string[] = [];
  for (const tag of a.slice(0, start).matchAll(/<(\/?)([A-Za-z_][\w.-]*)[^>]*?(\/?)>/g))
    if (tag[1]) open.pop();
    else if (!tag[3]) open.push(tag[2]!);
  if (open.length === 0) return undefined;
  const end = (text: string) => {
    const at = text.indexOf('<', i);
    return at < 0 ? text.length : at;
  };
  return { path: open.join('/'), recorded: a.slice(start, end(a)), emulated: b.slice(start, end(b)) };
}
