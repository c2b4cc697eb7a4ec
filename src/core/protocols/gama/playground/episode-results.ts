/**
 * Episode results of a transcript on show: the ones a playground session recorded (a note at each
 * episode's end carries the simulation's own result), or, for a recording without them (a frame log from
 * a real GAMA model), what the wire alone tells: rewards exactly, and the rest estimated.
 */
import { RESOURCE_REWARD, socialMetrics } from '../../../envs/scavenger';
import type { Annotation, Transcript, TranscriptMessage } from '../../../transcript/model';
import { readGamaOutline } from '../outline';
import type { GamaEpisodeResult } from '../simulation';
import type { GamaEpisodeView } from './options';

/** The code of the note that carries an episode's result. */
export const GAMA_EPISODE_NOTE = 'gama.episode.end';

/** The data of an episode's note. */
export interface GamaEpisodeNoteData {
  code: typeof GAMA_EPISODE_NOTE;
  text: string;
  episode: number;
  result: GamaEpisodeResult;
}

/** One line about an episode, for the console. */
export function describeEpisode(episode: number, result: GamaEpisodeResult): string {
  const collected = result.scavengers.reduce((sum, s) => sum + s.collected, 0);
  const { utilitarian, equality, sustainability, peace } = result.metrics;
  const ending = result.completed ? '' : ` (cut short: ${result.reason ?? 'stopped'})`;
  return (
    `episode ${episode}: ${result.cycles} cycles, ${collected} resources collected, ${result.resourcesLeft} left; ` +
    `U ${utilitarian.toFixed(2)}, E ${equality.toFixed(2)}, S ${sustainability === null ? 'none' : sustainability.toFixed(1)}, ` +
    `P ${peace.toFixed(2)}${ending}`
  );
}

/** The episode's result a note carries, if it is such a note. */
export function episodeNoteData(annotation: Annotation): GamaEpisodeNoteData | undefined {
  const data = annotation.data as Partial<GamaEpisodeNoteData> | undefined;
  if (annotation.type !== 'note' || data?.code !== GAMA_EPISODE_NOTE) return undefined;
  if (typeof data.episode !== 'number' || typeof data.result !== 'object' || data.result === null)
    return undefined;
  return data as GamaEpisodeNoteData;
}

/** What the wire tells of one scavenger in one episode. */
interface WireScavenger {
  id: string;
  reward: number;
  collectionCycles: number[];
  /** Cycles (not terminal) in which it asked. */
  asked: number;
}

/** What the wire tells of one connection. */
interface WireEpisode {
  scenario: string;
  scavengers: Map<string, WireScavenger>;
  cycles: number;
  lastAsker: number;
  terminal: boolean;
  closed: boolean;
}

/** A new episode's state, before any of its messages. */
function newEpisode(): WireEpisode {
  return {
    scenario: '',
    scavengers: new Map(),
    cycles: 0,
    lastAsker: Infinity,
    terminal: false,
    closed: false,
  };
}

/**
 * Reads one message into the episodes (one per connection, created in order of their first frame);
 * returns the episode it changed, if any.
 */
function readWireMessage(
  episodes: Map<string, WireEpisode>,
  message: TranscriptMessage,
): WireEpisode | undefined {
  const episodeOf = (conn: string) => {
    let episode = episodes.get(conn);
    if (!episode) episodes.set(conn, (episode = newEpisode()));
    return episode;
  };
  const scavengerOf = (episode: WireEpisode, id: string) => {
    let scavenger = episode.scavengers.get(id);
    if (!scavenger) {
      scavenger = { id, reward: 0, collectionCycles: [], asked: 0 };
      episode.scavengers.set(id, scavenger);
    }
    return scavenger;
  };
  let changed: WireEpisode | undefined;
  if (message.kind === 'close' && episodes.has(message.conn)) {
    changed = episodeOf(message.conn);
    changed.closed = true;
  }
  if (message.kind !== 'data' || message.dir !== 'c2s' || message.text === undefined) return changed;
  const reading = readGamaOutline(message.text);
  if (!reading.ok) return changed;
  const decoded = reading.message;
  const episode = episodeOf(message.conn);
  if (decoded.type === 'scenario') episode.scenario = decoded.scenario;
  if (decoded.type === 'connect') scavengerOf(episode, decoded.id);
  if (decoded.type !== 'request') return episode;
  const scavenger = scavengerOf(episode, decoded.id);
  const asker = [...episode.scavengers.keys()].indexOf(decoded.id);
  if (decoded.terminal) episode.terminal = true;
  else if (asker <= episode.lastAsker || episode.cycles === 0) episode.cycles++;
  episode.lastAsker = asker;
  const reward = decoded.reward ?? 0;
  scavenger.reward += reward;
  // The reward of a request was earned since the scavenger last asked: in the cycle before, at the latest.
  const when = Math.max(1, episode.cycles - (decoded.terminal ? 0 : 1));
  for (let i = 0; i < Math.floor(reward / RESOURCE_REWARD); i++) scavenger.collectionCycles.push(when);
  if (!decoded.terminal) scavenger.asked++;
  return episode;
}

/** What the wire tells of an episode that holds requests, as its result. */
function wireResult(episode: WireEpisode): GamaEpisodeResult {
  const scavengers = [...episode.scavengers.values()];
  const timeOut = (s: WireScavenger) => Math.max(0, episode.cycles - s.asked);
  return {
    scenario: episode.scenario,
    completed: episode.terminal || episode.closed,
    cycles: episode.cycles,
    resourcesLeft: Number.NaN,
    scavengers: scavengers.map((s) => ({
      id: s.id,
      reward: s.reward,
      collected: s.collectionCycles.length,
      timeOutCycles: timeOut(s),
      tagged: 0,
    })),
    metrics: socialMetrics(
      scavengers.map((s) => ({
        reward: s.reward,
        collectionCycles: s.collectionCycles,
        timeOutCycles: timeOut(s),
      })),
      episode.cycles,
    ),
  };
}

/** The recorded results, if the annotation is an episode's note. */
function recordedView(annotation: Annotation): GamaEpisodeView | undefined {
  const data = episodeNoteData(annotation);
  return data ? { episode: data.episode, result: data.result, fromWire: false } : undefined;
}

/**
 * Every episode's result in a transcript, read whole: recorded ones when it holds them, else read from the
 * wire. `GamaEpisodeResults` gives the same answers reading only what was added since it last looked.
 */
export function episodeResults(transcript: Transcript): GamaEpisodeView[] {
  const recorded = transcript.annotations.flatMap((annotation) => recordedView(annotation) ?? []);
  if (recorded.length) return recorded;
  const episodes = new Map<string, WireEpisode>();
  for (const message of transcript.messages) readWireMessage(episodes, message);
  return [...episodes.values()]
    .filter((episode) => episode.cycles > 0)
    .map((episode, i) => ({ episode: i + 1, result: wireResult(episode), fromWire: true }));
}

/**
 * The episodes' results of a transcript the views ask about again and again while it grows (read from
 * its file, or recorded as a session plays): each question reads only the messages and annotations
 * added since the one before, and works out again only the results of the episodes those changed. The
 * answers are `episodeResults`'s. A transcript replaced by another, or with fewer messages or
 * annotations than before, is read again from its start.
 */
export class GamaEpisodeResults {
  #messages: readonly TranscriptMessage[] | undefined;
  #annotations: readonly Annotation[] | undefined;
  #messagesRead = 0;
  #annotationsRead = 0;
  readonly #recorded: GamaEpisodeView[] = [];
  readonly #episodes = new Map<string, WireEpisode>();
  /** The result of each episode whose messages were all worked into it. */
  readonly #results = new Map<WireEpisode, GamaEpisodeResult>();
  /** Messages and annotations looked at so far: what the questions cost. */
  looked = 0;

  /** The results as the transcript stands now. */
  read(transcript: Transcript): GamaEpisodeView[] {
    const { messages, annotations } = transcript;
    if (annotations !== this.#annotations || annotations.length < this.#annotationsRead) {
      this.#annotations = annotations;
      this.#annotationsRead = 0;
      this.#recorded.length = 0;
    }
    for (let i = this.#annotationsRead; i < annotations.length; i++) {
      this.looked++;
      const view = recordedView(annotations[i]!);
      if (view) this.#recorded.push(view);
    }
    this.#annotationsRead = annotations.length;
    if (this.#recorded.length) return [...this.#recorded];
    // The wire is read only when there are no recorded results (the messages wait until then).
    if (messages !== this.#messages || messages.length < this.#messagesRead) {
      this.#messages = messages;
      this.#messagesRead = 0;
      this.#episodes.clear();
      this.#results.clear();
    }
    for (let i = this.#messagesRead; i < messages.length; i++) {
      this.looked++;
      const changed = readWireMessage(this.#episodes, messages[i]!);
      if (changed) this.#results.delete(changed);
    }
    this.#messagesRead = messages.length;
    const views: GamaEpisodeView[] = [];
    for (const episode of this.#episodes.values()) {
      if (episode.cycles === 0) continue;
      let result = this.#results.get(episode);
      if (!result) this.#results.set(episode, (result = wireResult(episode)));
      views.push({ episode: views.length + 1, result, fromWire: true });
    }
    return views;
  }
}
