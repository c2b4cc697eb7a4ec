/**
 * A recorded or stored rddlsim transcript shown in the playground: sent to the page with its reading, in
 * one batch, like a session that has ended. The page keeps it (an rddlsim session is small enough) and
 * every view reads it as it reads a live one.
 */
import { serialiseTranscript } from '../../../transcript/json-format';
import { UpdateBatcher } from '../../../session/update-batcher';
import type { PlaygroundServices, PlaygroundSession, ShownTranscript } from '../../session-contract';
import { createRddlsimReader } from '../reader';

/** Shows a transcript: its reading reaches the page at the next frame. */
export function showRddlsimTranscript(
  shown: ShownTranscript,
  services: PlaygroundServices,
): PlaygroundSession {
  const { transcript } = shown;
  const batcher = new UpdateBatcher({
    listener: services.listener,
    nextFrame: services.nextFrame,
    content: { kind: 'transcript', transcript, reader: createRddlsimReader() },
    reset: {
      protocol: transcript.protocol,
      origin: shown.origin,
      ...(shown.name ? { name: shown.name } : {}),
    },
  });
  batcher.close();
  const nothing = () => undefined;
  return {
    pause: nothing,
    resume: nothing,
    step: nothing,
    stop: nothing,
    setDelay: nothing,
    decide: nothing,
    abandon: nothing,
    ask: nothing,
    exportJson: () => [serialiseTranscript(transcript)],
  };
}
