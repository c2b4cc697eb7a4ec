/**
 * A MASSim transcript on show in the session worker, live or opened: its store and its reader. The
 * transcript stays here (a contest match is tens of megabytes of wire text); the page gets the reader's
 * news and asks for the big things one at a time.
 */
import { TranscriptStore, writeTranscriptJson } from '../../../transcript/store';
import type { Transcript } from '../../../transcript/model';
import { showTranscript } from '../../../session/shown-session';
import type { PlaygroundServices, PlaygroundSession, ShownTranscript } from '../../session-contract';
import { MassimTranscriptReader } from '../reader';
import { MassimWorldPacker } from '../world-packer';
import { MASSIM_QUESTIONS, type MassimQuestion } from './options';

/** The store of a transcript on show and its reader. */
export interface MassimShown {
  store: TranscriptStore;
  reader: MassimTranscriptReader;
}

/** Answers one of the views' questions about what is on show. */
export function answerMassimQuestion(
  shown: MassimShown,
  question: string,
  args: readonly unknown[],
): unknown {
  if (!(MASSIM_QUESTIONS as readonly string[]).includes(question)) return undefined;
  const [first, second] = args;
  switch (question as MassimQuestion) {
    case 'message': {
      const index = Number(first);
      return Number.isInteger(index) && index >= 0 && index < shown.store.length
        ? shown.store.message(index)
        : undefined;
    }
    case 'world':
      return shown.reader.world(Number(first));
    case 'agentView':
      return shown.reader.agentView(Number(first), String(second));
  }
}

/** The transcript on show as Protoplay JSON pieces. */
export function massimTranscriptJson(shown: MassimShown): string[] {
  const pieces: string[] = [];
  writeTranscriptJson(shown.store, (piece) => pieces.push(piece));
  return pieces;
}

/**
 * Shows a recorded or stored MASSim transcript: the reader's news reach the page at the next frame. A
 * transcript still being read is read for the views as it is read from its file (sharing the reading with
 * the summary, see `TranscriptGrowth.share`); the store compresses its text once the file is read, a chunk
 * per frame, instead of while the page waits for the file.
 */
export function showMassimTranscript(
  shown: ShownTranscript,
  services: PlaygroundServices,
): PlaygroundSession {
  const transcript: Transcript = shown.transcript;
  const store = TranscriptStore.fromTranscript(transcript, {
    packers: [new MassimWorldPacker()],
    compression: 'later',
  });
  const reader = new MassimTranscriptReader(store, { judgeAgents: transcript.meta.origin !== 'emulated' });
  const view: MassimShown = { store, reader };
  // A transcript still being read: what was read since goes into the store before each batch of news.
  const catchUp = () => {
    for (const connection of transcript.connections) store.addConnection(connection.id, connection.label);
    const from = store.length;
    for (let i = from; i < transcript.messages.length; i++) store.appendMessage(transcript.messages[i]!);
    // The reader takes the new messages as they are rather than decoding them out of the store again.
    if (reader.messagesRead === from) reader.readMessages(transcript.messages.slice(from));
  };
  shown.growing?.share?.({ read: catchUp, rounds: () => reader.simulations });
  let stopped = false;
  const compress = () => {
    if (!stopped && store.compressSealed()) services.nextFrame(compress);
  };
  const growing = shown.growing;
  if (!growing || growing.done) services.nextFrame(compress);
  else
    growing.onGrow(() => {
      if (growing.done) services.nextFrame(compress);
    });
  const session = showTranscript(
    shown,
    services,
    { kind: 'views', news: () => reader.read() },
    {
      ask: (question, args) => answerMassimQuestion(view, question, args),
      exportJson: () => massimTranscriptJson(view),
    },
    catchUp,
  );
  return {
    ...session,
    abandon: () => {
      stopped = true;
      session.abandon();
    },
  };
}
