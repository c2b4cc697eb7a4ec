/**
 * A recorded or stored rddlsim transcript shown in the playground: sent to the page with its reading, in
 * one batch, like a session that has ended. The page keeps it (an rddlsim session is small enough) and
 * every view reads it as it reads a live one.
 */
import { serialiseTranscript } from '../../../transcript/json-format';
import { showTranscript } from '../../../session/shown-session';
import type { PlaygroundServices, PlaygroundSession, ShownTranscript } from '../../session-contract';
import { describeError } from '../../../errors';
import { replayOnEmulatedHost, type HostReplayResult } from '../host-replay';
import { createRddlsimReader } from '../reader';

/** The question the page asks to play the shown recording again against the emulated server. */
export const REPLAY_ON_HOST_QUESTION = 'replay-on-host';

/** Its answer: what the replay found, or why it could not run. */
export type ReplayOnHostAnswer = { result: HostReplayResult } | { error: string };

/** Shows a transcript: its reading reaches the page at the next frame. */
export function showRddlsimTranscript(
  shown: ShownTranscript,
  services: PlaygroundServices,
): PlaygroundSession {
  const { transcript } = shown;
  return showTranscript(
    shown,
    services,
    { kind: 'transcript', transcript, reader: createRddlsimReader() },
    {
      ask: (question) => (question === REPLAY_ON_HOST_QUESTION ? replayAnswer(transcript) : undefined),
      exportJson: () => [serialiseTranscript(transcript)],
    },
  );
}

function replayAnswer(transcript: ShownTranscript['transcript']): ReplayOnHostAnswer {
  try {
    return { result: replayOnEmulatedHost(transcript) };
  } catch (error) {
    return { error: describeError(error) };
  }
}
