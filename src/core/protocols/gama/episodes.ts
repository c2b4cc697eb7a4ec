/**
 * Playing GAMA episodes in memory: the simulation (GAMA's side) linked to the API side answering with a
 * policy, one connection per episode, recorded as a transcript when asked. The command line's `run` and
 * the benchmarks play this way.
 */
import type { TranscriptRecorder } from '../../transcript/recorder';
import { GamaApi, type GamaDecide } from './api';
import { channelOf } from './codec';
import { linkInMemory } from './in-memory-link';
import {
  GamaSimulation,
  type GamaEpisodeResult,
  type GamaNote,
  type GamaSimulationOptions,
} from './simulation';

/** Options of `playGamaEpisodes`. */
export interface GamaEpisodesOptions {
  simulation: Omit<GamaSimulationOptions, 'onNote' | 'onEpisodeEnd' | 'onCycle' | 'onCycleEnd'>;
  decide: GamaDecide;
  episodes: number;
  /** Where the wire messages and notes go; nothing is recorded without one. */
  recorder?: TranscriptRecorder;
  /** Record the world after every cycle (large). */
  recordWorld?: boolean;
  /** Stops after the episode being played. */
  signal?: { readonly aborted: boolean };
  onEpisodeEnd?(result: GamaEpisodeResult, episode: number): void;
}

/** Plays episodes one after another; resolves to their results. */
export async function playGamaEpisodes(options: GamaEpisodesOptions): Promise<GamaEpisodeResult[]> {
  const { recorder } = options;
  const results: GamaEpisodeResult[] = [];
  const annotateNote = (note: GamaNote) =>
    recorder?.annotate(note.kind, { text: note.text, ...(note.channel ? { channel: note.channel } : {}) });
  const simulation = new GamaSimulation({
    ...options.simulation,
    onNote: annotateNote,
    onEpisodeEnd: (result) => results.push(result),
    ...(recorder && options.recordWorld ? { onCycle: (world) => recorder.annotate('world', world) } : {}),
  });
  const api = new GamaApi({ decide: options.decide, onNote: annotateNote });
  for (let episode = 1; episode <= options.episodes; episode++) {
    if (options.signal?.aborted) break;
    const conn = `episode ${episode}`;
    if (recorder) recorder.event(conn, 'c2s', 'open');
    await linkInMemory(simulation, api, {
      id: conn,
      ...(recorder
        ? {
            onFrame: (dir, text) => {
              recorder.text(conn, dir, text, 'frame', channelOf(text, dir) || undefined);
            },
            onClose: (by, reason) => recorder.event(conn, by === 'client' ? 'c2s' : 's2c', 'close', reason),
          }
        : {}),
    });
    const result = results[episode - 1];
    if (result) options.onEpisodeEnd?.(result, episode);
  }
  return results;
}
