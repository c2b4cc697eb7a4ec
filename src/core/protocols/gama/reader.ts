/**
 * What the views show of a GAMA transcript, read from wire messages and annotations alone: each connection
 * is one episode (a round), each cycle a turn, each scavenger a channel. The wire says nothing of cycles:
 * a cycle starts when a scavenger asks whose number is not above the last one that asked (scavengers ask
 * in turn; those in time-out skip theirs).
 */
import type { Annotation, TranscriptMessage } from '../../transcript/model';
import type {
  MessageSummary,
  RoundSummary,
  SessionNote,
  TranscriptReader,
  TurnSnapshot,
  ValueRow,
} from '../reading';
import { clip, readGamaMessage, readReply } from './codec';
import { outlineOfMessage } from './outline';

/** A log row, with the scavenger it is for or from. */
export interface GamaMessageSummary extends MessageSummary {
  channel?: string;
}

/** What the reader keeps of one connection (episode). */
interface EpisodeProgress {
  round: number;
  cycle: number;
  lastAsker: number;
  /** Index in `rounds`. */
  summary: RoundSummary;
  /** Order in which scavengers connected, for ids that carry no number. */
  connected: string[];
}

/** Reads GAMA transcripts incrementally. */
export class GamaTranscriptReader implements TranscriptReader {
  readonly messages: GamaMessageSummary[] = [];
  readonly rounds: RoundSummary[] = [];
  readonly turns: TurnSnapshot[] = [];
  readonly notes: SessionNote[] = [];
  readonly #episodes = new Map<string, EpisodeProgress>();

  append(messages: readonly TranscriptMessage[], annotations: readonly Annotation[]): void {
    for (const message of messages) this.messages.push(this.#read(message));
    for (const annotation of annotations) {
      const note = noteOf(annotation);
      if (note) this.notes.push(note);
    }
  }

  #episode(conn: string): EpisodeProgress {
    let episode = this.#episodes.get(conn);
    if (!episode) {
      const summary: RoundSummary = { round: this.rounds.length + 1, stepRewards: [] };
      this.rounds.push(summary);
      episode = { round: summary.round, cycle: 0, lastAsker: Infinity, summary, connected: [] };
      this.#episodes.set(conn, episode);
    }
    return episode;
  }

  #read(message: TranscriptMessage): GamaMessageSummary {
    const { index, conn } = message;
    if (message.kind !== 'data') {
      const episode = this.#episodes.get(conn);
      if (message.kind === 'close' && episode && episode.summary.endIndex === undefined) {
        episode.summary.total = episode.summary.stepRewards.reduce((sum, r) => sum + r, 0);
        episode.summary.endIndex = index;
      }
      return row(
        message,
        message.channel || undefined,
        undefined,
        undefined,
        message.kind,
        message.text ?? '',
      );
    }
    const text = message.text;
    const episode = this.#episode(conn);
    const { round } = episode;
    const turn = episode.cycle > 0 ? episode.cycle : undefined;
    // The message's own channel, unless empty; a reply, connect or request names its scavenger.
    const channel = message.channel || undefined;
    if (text === undefined)
      return row(message, channel, round, turn, 'binary', 'binary frame', 'GAMA frames are text');
    if (message.dir === 's2c') {
      const reading = readReply(text);
      if (!reading.ok) return row(message, channel, round, turn, 'reply', clip(text), reading.problem);
      const { id, action } = reading.reply;
      return row(message, id, round, turn, 'reply', `${clip(id, 20)}: ${clip(action, 30)}`);
    }
    const reading = outlineOfMessage(message);
    if (!reading.ok) return row(message, channel, round, turn, 'unknown', clip(text), reading.problem);
    const decoded = reading.message;
    if (decoded.type === 'scenario')
      return row(message, channel, round, turn, 'scenario', `scenario ${clip(decoded.scenario)}`);
    if (decoded.type === 'connect') {
      episode.connected.push(decoded.id);
      return row(message, decoded.id, round, turn, 'connect', `${clip(decoded.id, 20)} connects`);
    }
    const asker = scavengerNumber(decoded.id, episode.connected);
    if (episode.cycle === 0 || asker <= episode.lastAsker) {
      episode.cycle++;
      episode.summary.stepRewards.push(0);
    }
    episode.lastAsker = asker;
    const reward = decoded.reward ?? 0;
    episode.summary.stepRewards[episode.cycle - 1]! += reward;
    this.turns.push(new GamaTurn(index, round, episode.cycle, reward, text));
    const { id, shape, terminal } = decoded;
    return row(
      message,
      id,
      round,
      episode.cycle,
      terminal ? 'terminal' : 'request',
      `${clip(id, 20)} reward ${reward}, ${shape.join('x')}${terminal ? ', terminal' : ''}`,
    );
  }
}

/**
 * A log row, built field by field in the order the views have always had them (a reader builds one per
 * message: no spreading). `channel` is left out when undefined.
 */
function row(
  message: TranscriptMessage,
  channel: string | undefined,
  round: number | undefined,
  turn: number | undefined,
  type: string,
  gist: string,
  unreadable?: string,
): GamaMessageSummary {
  const summary = {
    index: message.index,
    dir: message.dir,
    conn: message.conn,
    t: message.t,
  } as GamaMessageSummary;
  if (channel !== undefined) summary.channel = channel;
  if (round !== undefined) summary.round = round;
  if (turn !== undefined) summary.turn = turn;
  summary.type = type;
  summary.gist = gist;
  if (unreadable !== undefined) summary.unreadable = unreadable;
  return summary;
}

/**
 * A request's turn. Its rows are made from the message's text when a view asks for them: a session reads
 * thousands of requests a second, and keeping each parsed matrix would keep the garbage collector busy.
 */
class GamaTurn implements TurnSnapshot {
  readonly noObservation = false;
  readonly #text: string;

  constructor(
    readonly index: number,
    readonly round: number,
    readonly turn: number,
    readonly reward: number,
    text: string,
  ) {
    this.#text = text;
  }

  get observed(): ValueRow[] {
    const reading = readGamaMessage(this.#text);
    return reading.ok && reading.message.type === 'request'
      ? observedRows(reading.message.id, reading.message.state)
      : [];
  }
}

/** `Scav. 7` -> 7; an id without a number counts by its order of connection. */
function scavengerNumber(id: string, connected: readonly string[]): number {
  const match = /(\d+)\s*$/.exec(id);
  if (match) return Number(match[1]);
  const order = connected.indexOf(id);
  return order >= 0 ? order + 1 : connected.length + 1;
}

/** The state as rows for the state panel: one row per matrix row (per plane for RGB). */
function observedRows(id: string, state: unknown[]): ValueRow[] {
  const rows: ValueRow[] = [{ name: 'scavenger', args: [], value: id }];
  const planes = Array.isArray(state[0]) && Array.isArray((state[0] as unknown[])[0]);
  const names = ['red', 'green', 'blue'];
  const add = (matrix: unknown[], plane?: string) =>
    matrix.forEach((row, r) =>
      rows.push({
        name: plane ?? 'row',
        args: [String(r)],
        value: (row as number[]).join(' '),
      }),
    );
  if (planes) state.forEach((plane, p) => add(plane as unknown[], names[p] ?? `plane ${p}`));
  else add(state);
  return rows;
}

/** A note for the views from an annotation, when it is one. */
function noteOf(annotation: Annotation): SessionNote | undefined {
  const { index, type } = annotation;
  if (type !== 'note' && type !== 'violation' && type !== 'error' && type !== 'policy-log') return undefined;
  const data = annotation.data as { text?: unknown; message?: unknown; channel?: unknown; level?: unknown };
  const body =
    typeof data?.text === 'string'
      ? data.text
      : typeof data?.message === 'string'
        ? data.message
        : JSON.stringify(annotation.data);
  const text =
    typeof data?.channel === 'string' && !body.startsWith(data.channel) ? `${data.channel}: ${body}` : body;
  return { index, kind: type, text, ...(typeof data?.level === 'string' ? { level: data.level } : {}) };
}
