/**
 * Episode results of a transcript on show: the ones a playground session recorded (a note at each
 * episode's end carries the simulation's own result), or, for a recording without them (a frame log from
 * a real GAMA model), what the wire alone tells: rewards exactly, and the rest estimated.
 */
import { RESOURCE_REWARD, socialMetrics } from '../../../envs/scavenger';
import type { Annotation, Transcript } from '../../../transcript/model';
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

/** Results estimated from the wire, one per connection holding requests, in order. */
function resultsFromWire(transcript: Transcript): GamaEpisodeResult[] {
  const episodes = new Map<string, WireEpisode>();
  const episodeOf = (conn: string) => {
    let episode = episodes.get(conn);
    if (!episode) {
      episode = {
        scenario: '',
        scavengers: new Map(),
        cycles: 0,
        lastAsker: Infinity,
        terminal: false,
        closed: false,
      };
      episodes.set(conn, episode);
    }
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
  for (const message of transcript.messages) {
    if (message.kind === 'close' && episodes.has(message.conn)) episodeOf(message.conn).closed = true;
    if (message.kind !== 'data' || message.dir !== 'c2s' || message.text === undefined) continue;
    const reading = readGamaOutline(message.text);
    if (!reading.ok) continue;
    const decoded = reading.message;
    const episode = episodeOf(message.conn);
    if (decoded.type === 'scenario') episode.scenario = decoded.scenario;
    if (decoded.type === 'connect') scavengerOf(episode, decoded.id);
    if (decoded.type !== 'request') continue;
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
  }
  return [...episodes.values()]
    .filter((episode) => episode.cycles > 0)
    .map((episode) => {
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
    });
}

/** Every episode's result in a transcript: recorded ones when it holds them, else read from the wire. */
export function episodeResults(transcript: Transcript): GamaEpisodeView[] {
  const recorded = transcript.annotations.flatMap((annotation) => {
    const data = episodeNoteData(annotation);
    return data ? [{ episode: data.episode, result: data.result, fromWire: false }] : [];
  });
  if (recorded.length) return recorded;
  return resultsFromWire(transcript).map((result, i) => ({ episode: i + 1, result, fromWire: true }));
}
