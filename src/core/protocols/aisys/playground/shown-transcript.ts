/**
 * A recorded or stored aisys transcript shown in the playground (a session played here, a `.jsonl`,
 * `.http` or HAR recording of a real server): sent to the page with its reading in one batch, and read
 * into the run book so the runs table, rating, run histories and HTTP log show it like a live session.
 */
import { showTranscript } from '../../../session/shown-session';
import { serialiseTranscript } from '../../../transcript/json-format';
import type { PlaygroundServices, PlaygroundSession, ShownTranscript } from '../../session-contract';
import { createAisysReader } from '../reader';
import { AisysResponseIndex, answerAisysQuestion } from './questions';
import { AisysRunBook } from './run-book';

/**
 * Shows a transcript: its reading reaches the page at the next frame. The run book reads the messages
 * when a view asks, those added since the last question only: a transcript still being read from its
 * file (`ShownTranscript.growing`) is answered for as far as it is read, and later questions see the rest.
 */
export function showAisysTranscript(shown: ShownTranscript, services: PlaygroundServices): PlaygroundSession {
  const { transcript } = shown;
  const book = new AisysRunBook();
  const responses = new AisysResponseIndex();
  let read = 0;
  const readBook = () => {
    const { messages } = transcript;
    if (read < messages.length) book.add(read === 0 ? messages : messages.slice(read));
    read = messages.length;
    return book;
  };
  return showTranscript(
    shown,
    services,
    { kind: 'transcript', transcript, reader: createAisysReader() },
    {
      ask: (question, args) => answerAisysQuestion(readBook(), transcript, question, args, responses),
      exportJson: () => [serialiseTranscript(transcript)],
    },
  );
}
