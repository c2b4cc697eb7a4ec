/**
 * Team policies in a worker, asked once per team and step: every agent's request-action of a step goes to
 * the team's worker in one message, and one message brings back every action. The same message shapes
 * serve a Web Worker in the browser and a worker thread in Node.
 *
 * A request-action crosses as its exact wire text, but not as characters: the host's transcript keeps it as
 * phrases of a phrase book, so the batch carries the phrase numbers (one small typed array per batch, which
 * can be transferred) plus the phrases the worker has not seen yet, and the worker reads each text from its
 * copy of the book. Copying 40 percepts of 2.6 KB into a message costs more than writing them, and parsing
 * the phrases each once costs a fraction of parsing every text.
 */
import type { MassimSimStartPercept } from '../../envs/massim/api';
import { PhraseJsonReader } from '../../transcript/store/phrase-json';
import type { PhraseBook } from '../../transcript/store/phrases';
import { createTeamDecide, type MassimDecide, type MassimDecisionRequest } from './client';
import type { MassimRequestAction } from './messages';
import type { MassimOutgoingFrame } from './outgoing';
import type { MassimAct, MassimPolicyAction } from './policy-api';

/**
 * One step's request-actions of one team. Apart from a few strings, a batch is two typed arrays on one
 * buffer (which the sender may transfer): copying a list of small objects into another thread costs
 * several times more than the numbers they hold.
 */
export interface MassimTeamBatch {
  team: string;
  /** The team's agents in this simulation. */
  teamAgents: readonly string[];
  /**
   * Phrases new to the receiver: `newPhrases[i]` is phrase number `phraseBase + i`. The receiver forgets
   * any phrase numbered `phraseBase` or above that it had (0 starts a fresh book).
   */
  phraseBase: number;
  newPhrases: string[];
  /** The agents asked, one request each, in order. */
  agents: string[];
  /**
   * Per request, how many numbers of `phrases` make its text, or -1 when its text is in `texts`. On the
   * same buffer as `phrases`.
   */
  phraseCounts: Int32Array;
  /** Phrase numbers of the requests sent as phrases, one request after another. */
  phrases: Int32Array;
  /** The request-actions exactly as sent that are not sent as phrases, by request position. */
  texts?: Record<number, string>;
  /** Sim-start percepts by request position, each sent again only when it changed since the agent's last. */
  simulations?: Record<number, MassimSimStartPercept>;
}

/** The actions of a batch, in the order of its requests; null where the policy gave none. */
export interface MassimTeamBatchReply {
  actions: (MassimPolicyAction | null)[];
}

/** Sends a batch to the team's policy and resolves with its reply (`phrases` may be transferred). */
export type MassimTeamBatchTransport = (batch: MassimTeamBatch) => Promise<MassimTeamBatchReply>;

interface PendingDecision {
  request: MassimDecisionRequest;
  resolve: (action: MassimPolicyAction | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * A `MassimDecide` for every agent of one team that gathers the requests arriving together (the host sends
 * a step's request-actions in one go) into one batch, and hands each agent its action from the reply. The
 * batch is sent as soon as every agent of the team has asked, else once the requests stop coming (at the
 * end of the current task).
 */
export function batchedTeamDecide(send: MassimTeamBatchTransport): MassimDecide {
  let pending: PendingDecision[] = [];
  const simulationSent = new Map<string, MassimSimStartPercept | undefined>();
  let book: PhraseBook | undefined;
  let phrasesSent = 0;
  let numbers = new Int32Array(4096);
  let count = 0;
  /** Appends the phrase numbers of a frame kept as phrases of `book` (false when it is not). */
  const copyPhrases = (frame: MassimOutgoingFrame): boolean => {
    if (frame.store.phrases !== book) return false;
    for (;;) {
      const copied = frame.store.copyPhrases(frame.index, numbers, count);
      if (copied === -1) return false;
      if (copied >= 0) {
        count += copied;
        return true;
      }
      const grown = new Int32Array(numbers.length * 2);
      grown.set(numbers.subarray(0, count));
      numbers = grown;
    }
  };

  const flush = () => {
    if (pending.length === 0) return;
    const taken = pending;
    pending = [];
    count = 0;
    // A new host (a new store) starts a new book on the receiver's side too.
    const frameBook = taken.find(({ request }) => request.frame)?.request.frame!.store.phrases;
    if (frameBook && frameBook !== book) {
      book = frameBook;
      phrasesSent = 0;
    }
    const phraseBase = phrasesSent;
    const agents: string[] = [];
    const counts: number[] = [];
    let texts: Record<number, string> | undefined;
    let simulations: Record<number, MassimSimStartPercept> | undefined;
    for (let i = 0; i < taken.length; i++) {
      const request = taken[i]!.request;
      agents.push(request.agent);
      const frame = request.frame;
      const start = count;
      if (frame && copyPhrases(frame)) counts.push(count - start);
      else {
        counts.push(-1);
        (texts ??= {})[i] = request.text;
      }
      if (request.simulation && simulationSent.get(request.agent) !== request.simulation) {
        (simulations ??= {})[i] = request.simulation;
        simulationSent.set(request.agent, request.simulation);
      }
    }
    const newPhrases: string[] = [];
    if (book) {
      for (let phrase = phrasesSent; phrase < book.size; phrase++) newPhrases.push(book.text(phrase));
      phrasesSent = book.size;
    }
    // Counts and phrase numbers on one buffer.
    const buffer = new Int32Array(counts.length + count);
    buffer.set(counts);
    buffer.set(numbers.subarray(0, count), counts.length);
    const batch: MassimTeamBatch = {
      team: taken[0]!.request.team,
      teamAgents: taken[0]!.request.teamAgents,
      phraseBase,
      newPhrases,
      agents,
      phraseCounts: buffer.subarray(0, counts.length),
      phrases: buffer.subarray(counts.length),
      ...(texts ? { texts } : {}),
      ...(simulations ? { simulations } : {}),
    };
    send(batch).then(
      (reply) => taken.forEach(({ resolve }, i) => resolve(reply.actions[i] ?? undefined)),
      // Every agent of the batch fails as its own policy would have.
      (error: unknown) => taken.forEach(({ reject }) => reject(error)),
    );
  };

  return (request) =>
    new Promise((resolve, reject) => {
      if (pending.length === 0) queueMicrotask(flush);
      pending.push({ request, resolve, reject });
      // Once every agent of the team has asked, the batch goes at once: the team's worker thinks while the
      // host writes the other teams' percepts.
      if (pending.length === request.teamAgents.length) flush();
    });
}

/**
 * The worker's side: reads each request-action (from its phrases, with `PhraseJsonReader`, which gives what
 * `JSON.parse` of the text gives, several times faster) and answers with a team policy (`act(percept,
 * agent, team)` per agent, in request order), keeping each agent's and the team's memory between batches as
 * `createTeamDecide` does.
 */
export function createTeamBatchAnswerer(
  act: MassimAct,
): (batch: MassimTeamBatch) => Promise<MassimTeamBatchReply> {
  const decide = createTeamDecide(act);
  const simulations = new Map<string, MassimSimStartPercept>();
  const book: string[] = [];
  const reader = new PhraseJsonReader(book);
  return async (batch) => {
    if (batch.phraseBase > book.length) throw new RangeError('a batch skipped phrases of the book');
    book.length = batch.phraseBase;
    reader.forget(batch.phraseBase);
    for (const text of batch.newPhrases) book.push(text);
    let offset = 0;
    const { agents, phraseCounts, phrases, texts, simulations: sims } = batch;
    const actions: ReturnType<MassimDecide>[] = [];
    for (let i = 0; i < agents.length; i++) {
      const agent = agents[i]!;
      const simulation = sims?.[i];
      if (simulation) simulations.set(agent, simulation);
      const start = offset;
      const phraseCount = phraseCounts[i]!;
      const text = phraseCount < 0 ? texts![i]! : undefined;
      if (phraseCount > 0) offset += phraseCount;
      const message = (
        text !== undefined ? JSON.parse(text) : reader.parse(phrases, start, offset)
      ) as MassimRequestAction;
      const { content } = message;
      actions.push(
        decide({
          team: batch.team,
          agent,
          teamAgents: batch.teamAgents,
          step: content.step,
          id: content.id,
          deadline: content.deadline,
          percept: content.percept,
          get text() {
            return text ?? joinPhrases(book, phrases, start, start + phraseCount);
          },
          simulation: simulations.get(agent),
        }),
      );
    }
    return { actions: (await Promise.all(actions)).map((action) => action ?? null) };
  };
}

function joinPhrases(book: readonly string[], phrases: Int32Array, start: number, end: number): string {
  let text = '';
  for (let i = start; i < end; i++) text += book[phrases[i]!];
  return text;
}
