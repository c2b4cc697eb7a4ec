/**
 * What the emulated host sends, as frames whose text and object are both available but only made when
 * someone asks. The transcript keeps every request-action as phrases (the percept writer's pieces), so the
 * wire text of a percept is only joined for a consumer that reads text (a socket, a policy worker), and
 * the object only built for one that reads objects (a policy in the same thread). Both describe the same
 * message: the text is what `serializeMassimMessage` makes of the object.
 */
import type { MassimPhraseOutput, MassimSimulation, MassimStepPercept } from '../../envs/massim/api';
import type { TranscriptStore } from '../../transcript/store/store';
import type { MassimJudgedMessage } from './client-machine';
import type { MassimRequestAction, MassimServerMessage } from './messages';

/** A frame the host sends on a connection. */
export interface MassimOutgoingFrame {
  readonly type: MassimServerMessage['type'];
  /** Its index in the session's transcript. */
  readonly index: number;
  /** The exact text, without the 0 terminator. */
  readonly text: string;
  /** The message object (do not modify it: agents share parts of it). */
  readonly message: MassimServerMessage;
  /** What an agent's protocol machine judges: the message, but a request-action without its percept. */
  readonly judged: MassimJudgedMessage;
  /** The transcript holding the frame at `index` (a request-action's text is kept there as phrases). */
  readonly store: TranscriptStore;
}

/** A frame whose text and object were both made when it was sent (everything but request-action). */
export class EagerFrame implements MassimOutgoingFrame {
  constructor(
    readonly store: TranscriptStore,
    readonly index: number,
    readonly message: MassimServerMessage,
    readonly text: string,
  ) {}

  get type(): MassimServerMessage['type'] {
    return this.message.type;
  }

  get judged(): MassimJudgedMessage {
    return this.message;
  }
}

/** A request-action frame: its text comes from the transcript, its percept object from the simulation. */
export class RequestActionFrame implements MassimOutgoingFrame {
  readonly type = 'request-action';
  readonly store: TranscriptStore;
  readonly index: number;
  readonly #header: RequestActionHeader;
  readonly #agent: string;
  readonly #simulation: MassimSimulation;
  #text: string | undefined;
  #message: MassimRequestAction | undefined;

  constructor(
    store: TranscriptStore,
    index: number,
    header: RequestActionHeader,
    agent: string,
    simulation: MassimSimulation,
  ) {
    this.store = store;
    this.index = index;
    this.#header = header;
    this.#agent = agent;
    this.#simulation = simulation;
  }

  get text(): string {
    return (this.#text ??= this.store.payload(this.index)!);
  }

  get judged(): MassimJudgedMessage {
    return { type: 'request-action', content: this.#header };
  }

  /**
   * The message, its percept made on first access: from the world while the simulation is still at this
   * step (the cheaper way), later from the text (the world has moved on).
   */
  get message(): MassimRequestAction {
    if (!this.#message) {
      const { step, id, time, deadline } = this.#header;
      // Keys in the order of `serializeMassimMessage`, so the object reads like the text.
      this.#message = {
        type: 'request-action',
        content: { step, id, time, percept: this.#percept(), deadline },
      };
    }
    return this.#message;
  }

  #percept(): MassimStepPercept {
    if (this.#simulation.currentStep === this.#header.step)
      return this.#simulation.requestActionPercept(this.#agent);
    return (JSON.parse(this.text) as MassimRequestAction).content.percept;
  }
}

/** The fields of a request-action besides its percept. */
export interface RequestActionHeader {
  step: number;
  id: number;
  time: number;
  deadline: number;
}

/**
 * Writes request-actions as phrases: the envelope around the percept (`{"type":"request-action","content":
 * {"step":…,"id":…,"time":…,"percept":` and `,"deadline":…}}`), whose step, time and deadline parts are the
 * same for every agent of a step and so made once per step.
 */
export class RequestActionWriter {
  #step:
    { step: number; time: number; deadline: number; head: number; timeKey: number; tail: number } | undefined;
  #book: MassimPhraseOutput['book'] | undefined;
  #id: { id: number; book: MassimPhraseOutput['book']; phrase: number } | undefined;

  /** Writes the whole request-action; `writePercept` writes the percept's phrases. */
  write(
    out: MassimPhraseOutput,
    header: RequestActionHeader,
    writePercept: (out: MassimPhraseOutput) => void,
  ): void {
    const { step, id, time, deadline } = header;
    let shared = this.#step;
    if (
      !shared ||
      this.#book !== out.book ||
      shared.step !== step ||
      shared.time !== time ||
      shared.deadline !== deadline
    ) {
      const book = out.book;
      this.#book = book;
      this.#step = shared = {
        step,
        time,
        deadline,
        head: book.intern(`{"type":"request-action","content":{"step":${JSON.stringify(step)},"id":`),
        timeKey: book.intern(`,"time":${JSON.stringify(time)},"percept":`),
        tail: book.intern(`,"deadline":${JSON.stringify(deadline)}}}`),
      };
    }
    out.push(shared.head);
    // Agents' ids mostly move in step: the last one's phrase usually serves the next agent too.
    if (this.#id?.id !== id || this.#id.book !== out.book)
      this.#id = { id, book: out.book, phrase: out.book.intern(JSON.stringify(id)) };
    out.push(this.#id.phrase);
    out.push(shared.timeKey);
    writePercept(out);
    out.push(shared.tail);
  }
}
