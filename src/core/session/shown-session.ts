/**
 * A recorded or stored transcript on show in the playground: its reading goes to the page in slices of
 * `SLICE_MESSAGES` messages, one per frame, as a live session's would (a 100,000-message import sent at
 * once would be one long task for the page to take in), and the run controls have nothing to do. A
 * transcript still being read from its file (`ShownTranscript.growing`) is shown as far as it is read, and
 * followed as it grows. Every protocol's runner shows transcripts this way; it gives what to send and how
 * to answer its views' questions and the export.
 */
import type { PlaygroundServices, PlaygroundSession, ShownTranscript } from '../protocols/session-contract';
import type { Transcript } from '../transcript/model';
import { UpdateBatcher, type BatchedContent } from './update-batcher';

/**
 * Messages sent to the page per frame when a transcript is shown: their reading is parsed and shown by the
 * page in one task, which must stay short (a few milliseconds) on a slow machine.
 */
export const SLICE_MESSAGES = 1000;

/**
 * Sends the transcript's reading to the page and returns the inert session that answers for it. With
 * `views` content, `catchUp` is called before each batch of a growing transcript: the runner takes the
 * messages added since into what its news are read from.
 */
export function showTranscript(
  shown: ShownTranscript,
  services: PlaygroundServices,
  content: BatchedContent,
  answers: Pick<PlaygroundSession, 'ask' | 'exportJson'>,
  catchUp?: () => void,
): PlaygroundSession {
  const growing = shown.growing;
  const whole = content.kind === 'transcript' ? content.transcript : undefined;
  // What has been handed to the batcher so far: the messages of the slices sent, with their annotations.
  const partial: Transcript | undefined = whole && { ...whole, messages: [], annotations: [] };
  const batcher = new UpdateBatcher({
    listener: services.listener,
    nextFrame: services.nextFrame,
    content: content.kind === 'transcript' && partial ? { ...content, transcript: partial } : content,
    reset: {
      protocol: shown.transcript.protocol,
      origin: shown.origin,
      ...(shown.name ? { name: shown.name } : {}),
    },
  });
  let stopped = false;
  /** A slice is asked for at the next frame (or the transcript is waited for). */
  let waiting = false;
  const sendSlice = () => {
    waiting = false;
    if (stopped || !whole || !partial) return;
    const to = Math.min(whole.messages.length, partial.messages.length + SLICE_MESSAGES);
    for (let i = partial.messages.length; i < to; i++) partial.messages.push(whole.messages[i]!);
    const read = !growing || growing.done;
    const last = read && to === whole.messages.length;
    while (
      partial.annotations.length < whole.annotations.length &&
      (last || whole.annotations[partial.annotations.length]!.index < to)
    )
      partial.annotations.push(whole.annotations[partial.annotations.length]!);
    if (last) batcher.close();
    else {
      batcher.flush();
      // What is read so far is sent: the next slice waits for the transcript to grow.
      if (to < whole.messages.length) askSlice();
    }
  };
  const askSlice = () => {
    if (waiting || stopped) return;
    waiting = true;
    services.nextFrame(sendSlice);
  };
  /** A transcript kept in the worker: its runner takes what was read, then its news go out. */
  const sendNews = () => {
    waiting = false;
    if (stopped) return;
    catchUp?.();
    if (!growing || growing.done) batcher.close();
    else batcher.flush();
  };
  if (partial) {
    sendSlice();
    growing?.onGrow(askSlice);
  } else if (growing) {
    sendNews();
    growing.onGrow(() => {
      if (waiting || stopped) return;
      waiting = true;
      services.nextFrame(sendNews);
    });
  } else batcher.close();
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
