/**
 * A recorded or stored rddlsim transcript shown in the playground: sent to the page with its reading, in
 * one batch, like a session that has ended. The page keeps it (an rddlsim session is small enough) and
 * every view reads it as it reads a live one.
 */
import { serialiseTranscript } from '../../../transcript/json-format';
import { showTranscript } from '../../../session/shown-session';
import type { PlaygroundServices, PlaygroundSession, ShownTranscript } from '../../session-contract';
import { createRddlsimReader } from '../reader';

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
      ask: () => undefined,
      exportJson: () => [serialiseTranscript(transcript)],
    },
  );
}
