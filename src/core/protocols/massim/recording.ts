/**
 * The host's recording: the shared recorder over the host's transcript store and clock, plus what only
 * MASSim writes: agents' actions kept as phrases (id, type, parameters) and frames whose text the host has
 * already decoded.
 */
import type { Direction, TranscriptMessage } from '../../transcript/model';
import type { PhraseBook } from '../../transcript/store/phrases';
import { TranscriptRecorder } from '../../transcript/recorder';
import type { TranscriptStore } from '../../transcript/store/store';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A message the agent sent, as recorded: its index and, when its bytes are UTF-8, its text. */
export interface RecordedFrame {
  index: number;
  text: string | undefined;
}

/** The phrases of action frames in one phrase book. */
interface ActionPhrases {
  book: PhraseBook;
  head: number;
  tail: number;
  types: Map<string, number>;
  parameters: Map<string, number>;
  lastId: { id: number; phrase: number } | undefined;
}

export class MassimRecording extends TranscriptRecorder {
  /** Phrases of action frames, in the store's phrase book of the moment. */
  #actions: ActionPhrases | undefined;

  constructor(store: TranscriptStore, now: () => number) {
    super({ store, now });
    this.#actionPhrases();
  }

  /** The action phrases of the store's book (a store that keeps nothing starts new books). */
  #actionPhrases(): ActionPhrases {
    const book = this.store.phrases;
    if (this.#actions?.book !== book)
      this.#actions = {
        book,
        head: book.intern('{"type":"action","content":{"id":'),
        tail: book.intern('}}'),
        types: new Map(),
        parameters: new Map(),
        lastId: undefined,
      };
    return this.#actions;
  }

  /**
   * An agent's action frame whose `text` is the plain form `readPlainAction` reads, kept as phrases (id,
   * type and parameters), which join to exactly that text: compact JSON of letters, digits and
   * underscores writes the same however it is produced.
   */
  plainAction(
    conn: string,
    text: string,
    action: { id: number; type: string; p: readonly string[] },
    framing: TranscriptMessage['framing'],
  ): RecordedFrame {
    const phrases = this.#actionPhrases();
    const { book } = phrases;
    if (phrases.lastId?.id !== action.id)
      phrases.lastId = { id: action.id, phrase: book.intern(JSON.stringify(action.id)) };
    const id = phrases.lastId.phrase;
    let type = phrases.types.get(action.type);
    if (type === undefined) {
      type = book.intern(`,"type":${JSON.stringify(action.type)},"p":`);
      phrases.types.set(action.type, type);
    }
    // Parameters are words (no commas), so joining them with commas names the list unambiguously.
    const key = `${action.p.length}:${action.p.join(',')}`;
    let p = phrases.parameters.get(key);
    if (p === undefined) {
      p = book.intern(JSON.stringify(action.p));
      phrases.parameters.set(key, p);
    }
    const index = this.phrased(
      conn,
      'c2s',
      (out) => {
        out.push(phrases.head);
        out.push(id);
        out.push(type);
        out.push(p);
        out.push(phrases.tail);
      },
      framing,
    );
    return { index, text };
  }

  /** An agent's frame received as bytes: kept as text when valid UTF-8 (`text`, if known), else as base64. */
  agentFrame(
    conn: string,
    dir: Direction,
    bytes: Uint8Array,
    framing: TranscriptMessage['framing'],
    text = strictText(bytes),
  ): RecordedFrame {
    const index =
      text !== undefined
        ? this.text(conn, dir, text, framing).index
        : this.bytes(conn, dir, bytes, framing).index;
    return { index, text };
  }
}

/** The bytes as UTF-8 text, or undefined when they are not valid UTF-8. */
export function strictText(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}
