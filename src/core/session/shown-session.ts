/**
 * A recorded or stored transcript on show in the playground: its reading goes to the page in slices of
 * `SLICE_MESSAGES` messages, one per frame, as a live session's would (a 100,000-message import sent at
 * once would be one long task for the page to take in), and the run controls have nothing to do. Every protocol's runner shows
 * transcripts this way; it gives what to send and how to answer its views' questions and the export.
 */
import type { PlaygroundServices, PlaygroundSession, ShownTranscript } from '../protocols/session-contract';
import type { Transcript } from '../transcript/model';
import { UpdateBatcher, type BatchedContent } from './update-batcher';

/** Messages sent to the page per frame when a transcript is shown. */
export const SLICE_MESSAGES = 4000;

/** Sends the transcript's reading to the page and returns the inert session that answers for it. */
export function showTranscript(
  shown: ShownTranscript,
  services: PlaygroundServices,
  content: BatchedContent,
  answers: Pick<PlaygroundSession, 'ask' | 'exportJson'>,
): PlaygroundSession {
  const whole = content.kind === 'transcript' ? content.transcript : undefined;
  // What has been handed to the batcher so far: the messages of the slices sent, with their annotations.
  const growing: Transcript | undefined = whole && { ...whole, messages: [], annotations: [] };
  const batcher = new UpdateBatcher({
    listener: services.listener,
    nextFrame: services.nextFrame,
    content: content.kind === 'transcript' && growing ? { ...content, transcript: growing } : content,
    reset: {
      protocol: shown.transcript.protocol,
      origin: shown.origin,
      ...(shown.name ? { name: shown.name } : {}),
    },
  });
  let stopped = false;
  const sendSlice = () => {
    if (stopped || !whole || !growing) return;
    const to = Math.min(whole.messages.length, growing.messages.length + SLICE_MESSAGES);
    for (let i = growing.messages.length; i < to; i++) growing.messages.push(whole.messages[i]!);
    const last = to === whole.messages.length;
    while (
      growing.annotations.length < whole.annotations.length &&
      (last || whole.annotations[growing.annotations.length]!.index < to)
    )
      growing.annotations.push(whole.annotations[growing.annotations.length]!);
    if (last) batcher.close();
    else {
      batcher.flush();
      services.nextFrame(sendSlice);
    }
  };
  if (growing) sendSlice();
  else batcher.close();
  const nothing = () => undefined;
  return {
    pause: nothing,
    resume: nothing,
    step: nothing,
    stop: nothing,
    setDelay: nothing,
    decide: nothing,
    abandon: () => {
      stopped = true;
      batcher.abandon();
    },
    ...answers,
  };
}
