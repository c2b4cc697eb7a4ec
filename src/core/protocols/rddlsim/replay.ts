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
      seed: result.seed,
      seedFrom: plan.seed !== undefined ? 'recording' : setup.seed !== undefined ? 'chosen' : 'default',
      compared: result.agreed + (difference ? 1 : 0),
      differing: difference ? 1 : 0,
      ...(difference
        ? {
            first: {
              recordedIndex: difference.recordedIndex,
              position: result.agreed,
              conn: recorded?.conn ?? transcript.messages.find((m) => m.kind === 'data')?.conn ?? '',
              path: '$',
              recorded: difference.recorded,
              emulated: difference.emulated,
              recordedText: difference.recorded,
              emulatedText: difference.emulated,
            },
          }
        : {}),
      notes: [
        'the session time left (<time-left>) is left out of the comparison',
        ...(difference ? ['the replay stops at the first difference: later answers depend on it'] : []),
      ],
    };
  },
};
