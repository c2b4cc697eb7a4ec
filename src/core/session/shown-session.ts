/**
 * A recorded or stored transcript on show in the playground: its reading goes to the page in one batch,
 * like a session that has ended, and the run controls have nothing to do. Every protocol's runner shows
 * transcripts this way; it gives what to send and how to answer its views' questions and the export.
 */
import type { PlaygroundServices, PlaygroundSession, ShownTranscript } from '../protocols/session-contract';
import { UpdateBatcher, type BatchedContent } from './update-batcher';

/** Sends the transcript's reading to the page and returns the inert session that answers for it. */
export function showTranscript(
  shown: ShownTranscript,
  services: PlaygroundServices,
  content: BatchedContent,
  answers: Pick<PlaygroundSession, 'ask' | 'exportJson'>,
): PlaygroundSession {
  const batcher = new UpdateBatcher({
    listener: services.listener,
    nextFrame: services.nextFrame,
    content,
    reset: {
      protocol: shown.transcript.protocol,
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
    ...answers,
  };
}
