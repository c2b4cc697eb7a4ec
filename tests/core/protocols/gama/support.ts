/** Playing GAMA episodes in tests: a recorded transcript with a fixed clock. */
import { findScavengerScenario } from '../../../../src/core/envs/scavenger';
import {
  playGamaEpisodes,
  type GamaDecide,
  type GamaEpisodeResult,
  type GamaSimulationOptions,
} from '../../../../src/core/protocols/gama';
import type { Transcript } from '../../../../src/core/transcript/model';
import { TranscriptRecorder } from '../../../../src/core/transcript/recorder';

/** Plays episodes of a scenario with a decide function; returns the results and the transcript. */
export async function playRecorded(
  decide: GamaDecide,
  options: Partial<Omit<GamaSimulationOptions, 'scenario'>> & { scenario?: string; episodes?: number } = {},
): Promise<{ results: GamaEpisodeResult[]; transcript: Transcript }> {
  const { scenario = 'A', episodes = 1, ...simulation } = options;
  const recorder = new TranscriptRecorder({ protocol: 'gama', now: () => 0 });
  const results = await playGamaEpisodes({
    simulation: { scenario: findScavengerScenario(scenario)!, ...simulation },
    decide,
    episodes,
    recorder,
  });
  return { results, transcript: recorder.transcript };
}

/** The data frames of a transcript as `dir text` lines. */
export function frames(transcript: Transcript): string[] {
  return transcript.messages.filter((m) => m.kind === 'data').map((m) => `${m.dir} ${m.text}`);
}
